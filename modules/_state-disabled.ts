/**
 * Salt's `_disabled` check of `state.sls`/`state.apply`/`state.highstate`: the SLS names (or
 * `highstate`, or `web.*` for a tree) in the `state_runs_disabled` grain do not run.
 */
import type { ExecContext } from '../kernel/index.js';

export const GRAIN = 'state_runs_disabled';

/** The SLS names (and patterns) the grain disables. */
export async function disabledRuns(ctx: ExecContext): Promise<string[]> {
  const got = await ctx.call('grains.get', [GRAIN]);
  return Array.isArray(got) ? got.map(String) : [];
}

/** Salt's `_disabled`: why each of `funs` may not run now (none when all may). */
export async function disabledMessages(ctx: ExecContext, funs: readonly string[]): Promise<string[]> {
  const runs = await disabledRuns(ctx);
  const out: string[] = [];
  for (const state of funs) {
    for (const run of runs) {
      if (run.includes('.*')) {
        let prefix = run.split('.')[0] ?? '';
        if (!prefix.endsWith('.')) prefix += '.';
        if (state.startsWith(prefix))
          out.push(
            `The state file "${state}" is currently disabled by "${run}", to re-enable, run state.enable ${run}.`,
          );
      } else if (run === state) {
        out.push(`The state file "${run}" is currently disabled, to re-enable, run state.enable ${run}.`);
      }
    }
  }
  return out;
}
