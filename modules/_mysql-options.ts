/**
 * The `mysql.*` minion options Salt's `mysql` execution module and `mysql_*` states read
 * (through `config.option`, so a grain or pillar of the same name serves too) when a call gives
 * no `connection_*` keyword: where the server is, who connects, which database and charset.
 * Declared for docs/config.md and a typed minion config; `mysqlOption` validates a value where
 * it is used. `mysql.pass` is a secret: it goes to the server's handshake only, and an error
 * about it never shows it.
 */
import type { z } from 'zod';
import { defineOptions, type ExecContext, nullableStringOption, type OptionsInput } from '../kernel/index.js';
import { portOption, readModuleOption } from './_module-options.js';

export const mysqlModuleOptions = defineOptions('minion', {
  'mysql.host': nullableStringOption(
    "The server's host name or address when a call gives no `connection_host`; null: `localhost` over TCP.",
  ),
  'mysql.port': portOption("The server's TCP port when a call gives no `connection_port`; null: 3306."),
  'mysql.user': nullableStringOption(
    'The account the module connects as when a call gives no `connection_user`; null: the server decides (an anonymous login).',
  ),
  'mysql.pass': nullableStringOption(
    "The password the module connects with when a call gives no `connection_pass`; a secret: it reaches the server's handshake only, never a log, an event, an error or a return.",
  ),
  'mysql.db': nullableStringOption(
    'The default database of a connection when a call gives no `connection_db` (`mysql.query` names its own); null: none.',
  ),
  'mysql.unix_socket': nullableStringOption(
    'A Unix socket to connect through instead of TCP when a call gives no `connection_unix_socket` (e.g. `/run/mysqld/mysqld.sock`); null: TCP.',
  ),
  'mysql.charset': nullableStringOption(
    "The connection's character set when a call gives no `connection_charset` (e.g. `utf8mb4`); null: the client's default.",
  ),
  'mysql.default_file': nullableStringOption(
    'An option file whose `[client]` group gives host, port, user, password, socket and database (e.g. `/etc/mysql/debian.cnf`), read when a call gives no `connection_default_file`; null: none.',
  ),
});

declare module '../kernel/index.js' {
  interface MinionPluginOptions extends OptionsInput<typeof mysqlModuleOptions> {}
}

type MysqlOptions = z.output<z.ZodObject<(typeof mysqlModuleOptions)['shape']>>;
export type MysqlOptionName = keyof MysqlOptions extends `mysql.${infer K}` ? K : never;

/**
 * The value of `mysql.<key>` as `config.option` finds it (minion config, grains, pillar),
 * coerced as the config loader does (`"3307"` for a port), validated and typed; null when unset.
 * @throws SALT_ERR_CONFIG_INVALID naming the option and what is wrong (a string password never fails)
 */
export async function mysqlOption<K extends MysqlOptionName>(
  ctx: ExecContext,
  key: K,
): Promise<MysqlOptions[`mysql.${K}`]> {
  return (await readModuleOption(ctx, mysqlModuleOptions, `mysql.${key}`)) as MysqlOptions[`mysql.${K}`];
}
