/**
 * Checks a low chunk before its state function runs (Salt's `State.verify_data` in
 * `salt/state.py`): the name is a string, the umask is octal, the state function exists
 * (`State 'x.y' was not found in SLS 'z'` with the loader's reason) and is given the arguments it
 * cannot do without (`Missing parameter ip for state host.present`), a `watch` on a module
 * without `mod_watch` becomes a `require`, and a chunk that requires itself is refused.
 */

import { pyRepr } from '../../../kernel/util.js';
import { fnmatch } from '../../../modules/_fnmatch.js';
import type { StateFunctions } from '../define.js';
import type { Low } from './run-state.js';
import { pyTypeName } from './run-state.js';

/** Turns `watch`/`watch_any` into `require`/`require_any` when the module has no `mod_watch`. */
export async function watchToRequire(states: StateFunctions, low: Low): Promise<boolean> {
  if (await states.has(`${low.state}.mod_watch`)) return true;
  for (const [watch, require] of [
    ['watch', 'require'],
    ['watch_any', 'require_any'],
  ] as const) {
    if (!(watch in low)) continue;
    const moved = [low[watch]].flat();
    delete low[watch];
    low[require] = Array.isArray(low[require]) ? [...(low[require] as unknown[]), ...moved] : moved;
  }
  return false;
}

/** The errors of a chunk, each a line of the comment; empty when it may run. */
export async function verifyData(states: StateFunctions, low: Low): Promise<string[]> {
  const errors: string[] = [];
  for (const key of ['state', 'fun', 'name']) if (!(key in low)) errors.push(`Missing "${key}" data`);
  if (low.name && typeof low.name !== 'string') {
    const inSls = '__sls__' in low ? `in SLS '${low.__sls__}' ` : '';
    errors.push(
      `ID '${String(low.name)}' ${inSls}is not formed as a string, but is a ${pyTypeName(low.name)}`,
    );
  }
  if ('umask' in low) {
    const umask = low.umask;
    delete low.umask;
    if (/^[0-7]+$/.test(String(umask))) low.__umask__ = Number.parseInt(String(umask), 8);
    else errors.push(`Invalid umask: ${String(umask)}`);
  }
  if (errors.length > 0) return errors;
  const full = `${low.state}.${low.fun}`;
  if (!(await states.has(full))) {
    if ('__sls__' in low) {
      errors.push(`State '${full}' was not found in SLS '${low.__sls__}'`);
      const reason = await states.explain(full);
      if (reason) errors.push(`Reason: ${reason}`);
    } else {
      errors.push(`Specified state '${full}' was not found`);
    }
  } else {
    // the arguments without a default must be in the chunk
    for (const arg of (await states.required(full)) ?? [])
      if (!(arg in low)) errors.push(`Missing parameter ${arg} for state ${full}`);
  }
  let reqdec = 'require' in low ? 'require' : '';
  if ('watch' in low) reqdec = (await watchToRequire(states, low)) ? 'watch' : 'require';
  for (const req of reqdec ? [low[reqdec]].flat() : []) {
    if (!req || typeof req !== 'object') continue;
    const [first, target] = Object.entries(req as Record<string, unknown>)[0] ?? [];
    if (first !== low.state || typeof target !== 'string') continue;
    if (fnmatch(String(low.name), target) || fnmatch(low.__id__, target)) {
      errors.push(
        `Recursive require detected in SLS ${low.__sls__} for require ${pyRepr(req)} in ID ${low.__id__}`,
      );
    }
  }
  return errors;
}
