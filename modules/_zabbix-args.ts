/**
 * The argument shapes the `zabbix` module's functions share (zod), and the doc tail each one
 * ends with. Values pass through as the caller gave them: the API gets what Salt would send.
 */
import type { z as Zod } from 'zod';

/** A required argument of any type. */
export const req = (z: typeof Zod) => z.unknown();

/** An optional argument of any type, None when not given. */
export const opt = (z: typeof Zod) => z.unknown().default(null);

/** The connection keywords, named in every function's doc. */
export const CONN_DOC = `

_connection_user, _connection_password, _connection_url: the frontend's credentials and URL
(else the zabbix.user, zabbix.password and zabbix.url options). Other keywords not starting
with _ are added to the API call's params (see Zabbix API documentation).`;

/** The CLI example every function's doc ends with. */
export const cli = (example: string) => `${CONN_DOC}\n\nCLI Example:\n\n    salt '*' zabbix.${example}`;
