/**
 * What the `state` module's functions share (`modules/state.ts`, `_state-show.ts`,
 * `_state-request.ts`): the SLS names of a call, the compile of `state.sls` and of the highstate,
 * the lock every run takes, and a run of each.
 */
import type { z as Zod } from 'zod';
import { type ExecContext, RetcodeResult } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { compileHighstate, compileSls, compileTop, highToLow } from '../plugins/states/compile/index.js';
import type { HighData, LowChunk } from '../plugins/states/index.js';
import { statePillarKwargs } from './_pillar-enc.js';
import { disabledMessages } from './_state-disabled.js';
import { highstatePillarFailure, pillarFailure } from './_state-pillar-check.js';
import {
  callHigh,
  checkQueue,
  EX_STATE_COMPILER_ERROR,
  freshStateCall,
  type StateCall,
  type StateKwargs,
} from './_state-run.js';

export const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;

/** `mods` as Salt's `split_input`: a comma-separated string or a list. */
export function modsOf(mods: unknown): string[] {
  if (mods === undefined || mods === null || mods === '') return [];
  const list = Array.isArray(mods) ? mods : String(mods).split(',');
  return list.map((m) => String(m).trim()).filter((m) => m !== '');
}

export const modsArg = (z: typeof Zod) =>
  z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]);

/** The SLS files named by `mods` of the call's saltenv, compiled to high data (with `exclude`). */
export function slsHigh(call: StateCall, mods: unknown, kw: StateKwargs) {
  return compileSls(call.source, call.render, modsOf(mods), call.saltenv, {
    ...renderOptions(call),
    exclude: kw.exclude,
  });
}

export function highstateHigh(call: StateCall, kw: StateKwargs) {
  return compileHighstate(call.source, call.render, call.minion, {
    ...call.top,
    ...renderOptions(call),
    exclude: kw.exclude,
  });
}

/** Salt's `state_auto_order` (numbered while rendering) and `env_order`. */
function renderOptions(call: StateCall) {
  return { stateAutoOrder: call.ctx.opts.state_auto_order !== false, envOrder: call.top.env_order };
}

/** `state.top`'s call: the highstate of another top file (and only its saltenv, when one is given). */
export function withTop(call: StateCall, topfn: string, saltenv: string | null): StateCall {
  const state_top = topfn.replace(/^salt:\/\//, '');
  return {
    ...call,
    top: { ...call.top, state_top, state_top_saltenv: saltenv ?? call.top.state_top_saltenv },
  };
}

/** Runs `fn` unless another state run holds the minion (`queue=True` waits for it). */
export async function locked(
  ctx: ExecContext,
  kw: StateKwargs,
  fn: () => Promise<unknown>,
): Promise<unknown> {
  const conflict = await checkQueue(ctx, kw);
  return conflict ?? fn();
}

/** A compile's value for the `show_*` functions: the data, or its errors with retcode 1. */
export function shown<T>(data: T, errors: readonly string[]): T | RetcodeResult<string[]> {
  return errors.length > 0 ? new RetcodeResult([...errors], EX_STATE_COMPILER_ERROR) : data;
}

export async function sls(ctx: ExecContext, mods: unknown, kw: StateKwargs): Promise<unknown> {
  return locked(ctx, kw, async () => {
    // as Salt's: a list's names, or the argument as given (`a,b` is one name here)
    const disabled = await disabledMessages(ctx, Array.isArray(mods) ? mods.map(String) : [String(mods)]);
    if (disabled.length > 0) return new RetcodeResult(disabled, EX_STATE_COMPILER_ERROR);
    const call = await freshStateCall(ctx, await statePillarKwargs(ctx, kw));
    const failed = pillarFailure(call, kw);
    if (failed) return failed;
    const { high, errors } = await slsHigh(call, mods, kw);
    return callHigh(call, high, errors);
  });
}

/** Salt's answer to `state.highstate` while `state.disable highstate` holds (retcode 0, as Salt's). */
const HIGHSTATE_DISABLED = {
  name: 'Salt highstate run is disabled. To re-enable, run state.enable highstate',
  result: 'False',
  comment: 'Disabled',
};

export async function highstate(ctx: ExecContext, kw: StateKwargs, topfn?: string): Promise<unknown> {
  if (!topfn && (await disabledMessages(ctx, ['highstate'])).length > 0) return { ...HIGHSTATE_DISABLED };
  return locked(ctx, kw, async () => {
    const base = await freshStateCall(ctx, await statePillarKwargs(ctx, kw));
    const failed = pillarFailure(base, kw);
    if (failed) return failed;
    const call = topfn ? withTop(base, topfn, base.highstateEnv) : base;
    const leftover = highstatePillarFailure(call, topfn ? undefined : kw.force);
    if (leftover) return leftover;
    const { high, errors } = await highstateHigh(call, kw);
    if (errors.length === 0 && Object.keys(high).length === 0) {
      const top = await compileTop(call.source, call.render, call.minion, call.top);
      const comment =
        Object.keys(top.matches).length === 0
          ? 'No Top file or master_tops data matches found. Please see master log for details.'
          : 'No states found for this minion';
      const ret = {
        'no_|-states_|-states_|-None': {
          result: false,
          comment,
          name: 'No States',
          changes: {},
          __run_num__: 0,
        },
      };
      return new RetcodeResult(ret, 2);
    }
    return callHigh(call, high, errors);
  });
}

/**
 * The low chunks of high data, or the compile errors; `raw` compiles only (Salt's
 * `state.show_low_sls` skips extend, the `_in` requisites and exclude).
 */
export function lowOf(high: HighData, errors: readonly string[], raw = false) {
  if (errors.length > 0) return { chunks: [] as LowChunk[], errors: [...errors] };
  return highToLow(high, { raw });
}

/**
 * The optional arguments a Salt state function names in its signature (each None by default);
 * every other keyword (saltenv, pillarenv, pillar, exclude, ...) arrives in its `**kwargs`.
 */
export const optional = <const K extends readonly string[]>(z: typeof Zod, ...names: K) =>
  Object.fromEntries(names.map((n) => [n, z.unknown().optional()])) as {
    [P in K[number]]: Zod.ZodOptional<Zod.ZodUnknown>;
  };
