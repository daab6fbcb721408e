/**
 * A returner's options, gathered as Salt's `get_returner_options` does and validated by the
 * returner's own zod schema. Sources, later ones winning: a map under the returner's name
 * (`postgres: { host: db1 }`, handy in `master.config.ts`), Salt's flat keys
 * `returner.<name>.<key>` then `<name>.<key>`, with `ret_config: X` the keys `X.<name>.<key>`,
 * and last the job's `ret_kwargs`.
 */
import { SALT_ERR_RETURNER_OPTIONS } from '../errors.js';
import { isRecord } from '../guards.js';
import type { UnitLogger } from '../loader/define.js';
import type { ReturnerContext, ReturnerDef } from './returner.js';

/** Per-call option sources: `salt --return_config X --return_kwargs '{...}'`. */
export interface ReturnerCallOptions {
  retConfig?: string;
  retKwargs?: Readonly<Record<string, unknown>>;
}

function withPrefix(
  source: Readonly<Record<string, unknown>>,
  prefix: string,
  into: Record<string, unknown>,
): void {
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith(prefix) && key.length > prefix.length) into[key.slice(prefix.length)] = value;
  }
}

/** The raw (unvalidated) options of returner `name` from a resolved config. */
export function gatherReturnerOptions(
  name: string,
  opts: Readonly<Record<string, unknown>>,
  call: ReturnerCallOptions = {},
): Record<string, unknown> {
  // Unknown config keys land in `extra` of a resolved config; a plain object carries them itself.
  const source = { ...opts, ...(isRecord(opts.extra) ? opts.extra : {}) };
  const out: Record<string, unknown> = {};
  const nested = source[name];
  if (isRecord(nested)) Object.assign(out, nested);
  withPrefix(source, `returner.${name}.`, out);
  withPrefix(source, `${name}.`, out);
  if (call.retConfig) withPrefix(source, `${call.retConfig}.${name}.`, out);
  if (call.retKwargs) Object.assign(out, call.retKwargs);
  return out;
}

/**
 * Builds the context a returner's methods receive, validating its options.
 * @throws SALT_ERR_RETURNER_OPTIONS naming the returner and each bad option
 */
export function returnerContext<O>(
  def: ReturnerDef<O>,
  opts: Readonly<Record<string, unknown>>,
  log: UnitLogger,
  call: ReturnerCallOptions = {},
): ReturnerContext<O> {
  const raw = gatherReturnerOptions(def.name, opts, call);
  if (!def.options) return { opts, log, options: raw as O };
  const parsed = def.options.safeParse(raw);
  if (!parsed.success) {
    const summary = parsed.error.issues
      .map((issue) => `${issue.path.length ? issue.path.join('.') : '(options)'}: ${issue.message}`)
      .join('; ');
    throw new SALT_ERR_RETURNER_OPTIONS(def.name, summary);
  }
  return { opts, log, options: parsed.data };
}
