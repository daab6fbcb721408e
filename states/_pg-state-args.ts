/**
 * The connection keywords every `postgres_*` state takes (`user` is the system user psql runs
 * as; `db_*` the server and role), as a zod shape.
 */
import type { z as Zod } from 'zod';

export const pgStateConn = (z: typeof Zod) => ({
  user: z.unknown().default(null),
  maintenance_db: z.unknown().default(null),
  db_password: z.unknown().default(null),
  db_host: z.unknown().default(null),
  db_port: z.unknown().default(null),
  db_user: z.unknown().default(null),
});

export const pgName = (z: typeof Zod) => z.union([z.string(), z.number()]).transform(String);

/** Salt's state modules load when the `postgres` module's psql is there. */
export { psqlPresent } from '../modules/_pg-run.js';
