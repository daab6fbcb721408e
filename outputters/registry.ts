/**
 * The outputters `--out` can name, all loaded at once, for callers that pick one synchronously
 * (`salt-call`, `salt-key`); more can be added with {@link registerOutputter}. `salt` and
 * `salt-run` load only the one they print with (builtin.ts, extension-outputters.ts).
 */
import { createRegistry } from '../kernel/registry.js';
import { nestedFallback } from './fallback.js';
import { highstateOutputter } from './highstate.js';
import { jsonOutputter } from './json.js';
import { keyOutputter } from './key-list.js';
import { nestedOutputter } from './nested.js';
import { newlineValuesOnlyOutputter } from './newline-values-only.js';
import { pprintOutputter } from './pprint.js';
import { quietOutputter } from './quiet.js';
import { rawOutputter } from './raw.js';
import { txtOutputter } from './txt.js';
import type { Outputter } from './types.js';
import { yamlOutputter } from './yaml.js';

const outputters = createRegistry<Outputter>('outputter');
for (const o of [
  nestedOutputter,
  jsonOutputter,
  yamlOutputter,
  txtOutputter,
  rawOutputter,
  newlineValuesOnlyOutputter,
  pprintOutputter,
  quietOutputter,
  keyOutputter,
  highstateOutputter,
]) {
  outputters.register(o);
}

/** The outputter registered as `name`, if any. */
export function getOutputter(name: string): Outputter | undefined {
  return outputters.get(name);
}

/** The registered outputter names, sorted. */
export function listOutputters(): string[] {
  return outputters.names();
}

/** Adds an outputter; a name already taken throws `SALT_ERR_REGISTRY_DUPLICATE`. */
export function registerOutputter(o: Outputter): void {
  outputters.register(o);
}

/**
 * The outputter the `salt` CLI uses for `--out=<name>` (Salt's `get_printout`): `text`
 * means `txt`; none or an empty name means `nested`; an unknown name falls back to
 * `nested`, logging Salt's "Invalid outputter ... specified, fall back to nested" to stderr.
 * @example resolveOutputter(opts.out).render(ret, { color })
 */
export function resolveOutputter(name: string | undefined): Outputter {
  const wanted = name === 'text' ? 'txt' : name || 'nested';
  return outputters.get(wanted) ?? nestedFallback(wanted, nestedOutputter);
}
