/**
 * What the option files of connection-style execution modules (`postgres.*`, `mysql.*`) share:
 * a TCP port option, and reading one option the way Salt's modules do, through `config.option`
 * (minion config, grains, pillar), validated by the module's own option set.
 */
import { z } from 'zod';
import { collectionOption, type ExecContext, type OptionSet } from '../kernel/index.js';

const portError = { error: 'expected a port number from 1 to 65535 or null' };
const port = z
  .preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.int(portError).min(1, portError).max(65535, portError),
  )
  .nullable();

/** A server's TCP port: an integer 1-65535 (a digit string is taken), or null. */
export const portOption = (description: string) =>
  collectionOption(port, null, description, 'integer 1–65535 | null');

/**
 * The value of option `name` as `config.option` finds it, coerced as the config loader does
 * (`"5433"` for a port) and validated by `set`; its default when unset.
 * @throws SALT_ERR_CONFIG_INVALID naming the option and what is wrong (a string password never fails)
 */
export async function readModuleOption(ctx: ExecContext, set: OptionSet, name: string): Promise<unknown> {
  const raw = await ctx.call('config.option', [name, null]);
  const extra = raw === null || raw === '' ? {} : { [name]: raw };
  return (set.read({ extra, conf_file: 'the minion config, grains or pillar' }) as Record<string, unknown>)[
    name
  ];
}
