/**
 * Salt's `state.disable`, `state.enable` and `state.list_disabled`: SLS names (or `highstate`,
 * or `web.*` for a whole tree) kept in the `state_runs_disabled` grain, which `state.sls`,
 * `state.apply` and `state.highstate` refuse to run with Salt's messages (retcode 1;
 * `_state-disabled.ts`), and `state.clear_cache` (the `*.cache.p` files in the cachedir).
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { defineFunction, type ExecContext, type FunctionSpec } from '../kernel/index.js';
import { cli } from './_state-calls.js';
import { disabledRuns, GRAIN } from './_state-disabled.js';

/** Salt's `split_input`: a list as is, else the comma-separated parts of its text. */
const names = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map(String)
    : String(v)
        .split(',')
        .map((s) => s.trim());

async function toggle(ctx: ExecContext, states: unknown, disable: boolean) {
  const runs = await disabledRuns(ctx);
  const msg: string[] = [];
  let changed = false;
  for (const state of names(states)) {
    const has = runs.includes(state);
    if (has === disable) msg.push(`Info: ${state} state already ${disable ? 'disabled' : 'enabled'}.`);
    else {
      msg.push(`Info: ${state} state ${disable ? 'disabled' : 'enabled'}.`);
      if (disable) runs.push(state);
      else runs.splice(runs.indexOf(state), 1);
      changed = true;
    }
  }
  if (changed) await ctx.call('grains.setval', [GRAIN, runs]);
  await ctx.call('saltutil.refresh_modules', []);
  return { res: true, msg: msg.join('\n') };
}

const statesArg = (z: typeof import('zod').z) =>
  z.object({ states: z.union([z.string(), z.number(), z.array(z.unknown())]) });

export const disableFunctions: Record<string, FunctionSpec> = {
  disable: defineFunction({
    args: statesArg,
    doc: `Disable state runs: SLS names, \`highstate\`, or \`name.*\` for an SLS tree (the \`state_runs_disabled\` grain).${cli('state.disable highstate')}`,
    run: (ctx, a) => toggle(ctx, a.states, true),
  }),
  enable: defineFunction({
    args: statesArg,
    doc: `Enable state runs that state.disable disabled.${cli('state.enable highstate')}`,
    run: (ctx, a) => toggle(ctx, a.states, false),
  }),
  list_disabled: defineFunction({
    doc: `List the states which are currently disabled.${cli('state.list_disabled')}`,
    run: (ctx) => ctx.call('grains.get', [GRAIN]),
  }),
  clear_cache: defineFunction({
    doc: `Clear out cached state files (\`*.cache.p\` in the cachedir), forcing even cache runs to be made. Returns the removed file names.${cli('state.clear_cache')}`,
    run: async (ctx) => {
      const dir = String(ctx.opts.cachedir);
      const removed: string[] = [];
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        if (!name.endsWith('.cache.p')) continue;
        const path = join(dir, name);
        if (!(await stat(path).catch(() => undefined))?.isFile()) continue;
        await rm(path, { force: true });
        removed.push(name);
      }
      return removed;
    },
  }),
};
