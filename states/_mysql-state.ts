/**
 * What Salt's `mysql_*` state modules share: the connection keywords a state passes on to the
 * `mysql` module, and `_get_mysql_error` (the last MySQL error of the job, popped from the
 * module's context into the state's comment).
 */
import type { ExecContext, ExtraArgs } from '../kernel/index.js';
import { connArgs } from '../modules/_mysql-args.js';
import type { MysqlConnArgs } from '../modules/_mysql-conn.js';
import { popMysqlError } from '../modules/_mysql-context.js';

/** The `connection_*` keywords of a state's `**connection_args`. */
export const stateConn = (extra: ExtraArgs): MysqlConnArgs => connArgs(extra);

/** Salt's `_get_mysql_error`: the job's last MySQL error, then forgotten; null when none. */
export const getMysqlError = (ctx: ExecContext): string | null => popMysqlError(ctx);

/** The `mysql` module's functions, called as the states call them. */
export function mysqlCaller(ctx: ExecContext, conn: MysqlConnArgs) {
  return (fun: string, args: readonly unknown[], kwargs: Record<string, unknown> = {}) =>
    ctx.call(`mysql.${fun}`, args, { ...kwargs, ...conn });
}
