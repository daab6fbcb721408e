/**
 * The `postgres.*` minion options Salt's `postgres` execution module and `postgres_*` states
 * read (through `config.option`, so a grain or pillar of the same name serves too): where psql
 * connects, as whom, and where the PostgreSQL programs are. Declared for docs/config.md and a
 * typed minion config; `pgOption` validates a value where it is used. `postgres.pass` is a
 * secret: it goes to psql in its environment only, and an error about it never shows it.
 */
import type { z } from 'zod';
import {
  defineOptions,
  type ExecContext,
  nullableStringOption,
  numberOption,
  type OptionsInput,
} from '../kernel/index.js';
import { portOption, readModuleOption } from './_module-options.js';

export const postgresModuleOptions = defineOptions('minion', {
  'postgres.user': nullableStringOption(
    'The role psql connects as (`--username`) when a call gives none; null: the system user psql runs as.',
  ),
  'postgres.host': nullableStringOption(
    "The server's host name, or a socket directory (`/run/postgresql`); null or a directory: psql runs as the `postgres` system user unless a call gives `runas`.",
  ),
  'postgres.port': portOption("The server's TCP port (`--port`); null: psql's default (5432)."),
  'postgres.pass': nullableStringOption(
    'The password psql connects with when a call gives none; a secret: it reaches psql in its environment only, never its argv, a log, an event or a return.',
  ),
  'postgres.maintenance_db': nullableStringOption(
    'The database psql connects to for server-wide work (roles, databases, tablespaces); null: `postgres`.',
  ),
  'postgres.bins_dir': nullableStringOption(
    'A directory holding `psql`, `initdb` and the other PostgreSQL programs, searched when they are not on PATH (e.g. `/usr/lib/postgresql/15/bin`).',
  ),
  'postgres.timeout': numberOption(
    0,
    'Seconds a psql or initdb run may take before it is killed; 0: no limit.',
    { min: 0 },
  ),
});

declare module '../kernel/index.js' {
  interface MinionPluginOptions extends OptionsInput<typeof postgresModuleOptions> {}
}

type PgOptions = z.output<z.ZodObject<(typeof postgresModuleOptions)['shape']>>;
export type PgOptionName = keyof PgOptions extends `postgres.${infer K}` ? K : never;

/**
 * The value of `postgres.<key>` as `config.option` finds it (minion config, grains, pillar),
 * coerced as the config loader does (`"5433"` for a port), validated and typed; its default
 * when unset.
 * @throws SALT_ERR_CONFIG_INVALID naming the option and what is wrong (a string password never fails)
 */
export async function pgOption<K extends PgOptionName>(
  ctx: ExecContext,
  key: K,
): Promise<PgOptions[`postgres.${K}`]> {
  return (await readModuleOption(
    ctx,
    postgresModuleOptions,
    `postgres.${key}`,
  )) as PgOptions[`postgres.${K}`];
}
