/**
 * The argument shapes the `mysql` module's functions share (zod): names as Salt takes them
 * (a string, or a number made one), optional values, and the `connection_*` keywords every
 * function accepts among its `**connection_args`.
 */
import type { z as Zod } from 'zod';
import type { ExtraArgs } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { CONN_KEYS, type MysqlConnArgs } from './_mysql-conn.js';
import type { GrantTarget } from './_mysql-grant-fns.js';

/** A name: a string, or a number made one. */
export const name = (z: typeof Zod) => z.union([z.string(), z.number()]).transform(String);

/** An optional argument of any type, None when not given. */
export const u = (z: typeof Zod) => z.unknown().default(null);

/** A flag with a default, judged by Python truthiness where it is used. */
export const flag = (z: typeof Zod, d: boolean) => z.unknown().default(d);

/** The `connection_*` keywords (and `client_flags`) among a call's extra keywords. */
export function connArgs(extra: ExtraArgs): MysqlConnArgs {
  const out: Record<string, unknown> = {};
  for (const k of CONN_KEYS) if (k in extra.kwargs) out[k] = extra.kwargs[k];
  return out as MysqlConnArgs;
}

/** Python truthiness. */
export const truthy = (v: unknown): boolean => pyTruthy(v);

/** The CLI example every function's doc ends with. */
export const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' mysql.${example}`;

/** The arguments of `grant_exists`, `grant_add` and `grant_revoke`, Salt's order. */
export const grantArgs = (z: typeof Zod) => ({
  grant: name(z),
  database: name(z),
  user: name(z),
  host: name(z).default('localhost'),
  grant_option: flag(z, false),
  escape: flag(z, true),
});

/** A {@link GrantTarget} from bound grant arguments. */
export function grantTarget(a: {
  grant: string;
  database: string;
  user: string;
  host: string;
  grant_option: unknown;
  escape: unknown;
}): GrantTarget {
  return {
    grant: a.grant,
    database: a.database,
    user: a.user,
    host: a.host,
    grantOption: a.grant_option,
    quoteNames: truthy(a.escape),
  };
}
