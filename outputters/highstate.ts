/**
 * The `highstate` outputter (salt/output/highstate.py): what `state.apply`, `state.sls`,
 * `state.highstate` and the orchestrate runner print. Each host's states in run order with
 * their ID, function, result, comment, timing and changes (or one terse line each, as
 * `state_output` says), then a summary of succeeded, failed and changed states. Data it
 * cannot read prints with the nested outputter, as Salt's `try_printout` falls back.
 */
import { pyRstrip } from '../kernel/python/index.js';
import { highstateContext } from './highstate/context.js';
import { renderHosts } from './highstate/host.js';
import { HighstateDataError } from './highstate/py-format.js';
import { renderNested } from './nested.js';
import { defineOutputter, type OutputOptions, type Outputter } from './types.js';

/** `v` with its plain objects and arrays copied (other values shared). */
function copyContainers(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copyContainers);
  if (v !== null && typeof v === 'object') {
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = copyContainers(x);
      return out;
    }
  }
  return v;
}

/** The highstate text for `data` (rstripped, as Salt prints it). */
export function renderHighstate(input: unknown, opts: OutputOptions): string {
  // Salt's outputter writes into the return as it goes; this works on a copy of it
  const data = copyContainers(input);
  try {
    const out = renderHosts(highstateContext(opts), data, 1);
    if ('text' in out) return pyRstrip(out.text);
    if (typeof out.raw === 'string') return pyRstrip(out.raw);
  } catch (e) {
    if (!(e instanceof HighstateDataError)) throw e;
  }
  return renderNested(data, opts);
}

/** `--out=highstate`. */
export const highstateOutputter: Outputter = defineOutputter({ name: 'highstate', render: renderHighstate });
