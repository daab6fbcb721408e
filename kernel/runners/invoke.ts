/**
 * Runs one runner or wheel function as Salt's `SyncClientMixin.low` does: bind the arguments,
 * call, and shape the outcome (`return`, `success`, `retcode`). An exception becomes Salt's
 * `Exception occurred in <client> <fun>: ...` text with `success: false`, never a throw.
 */
import { SaltError } from '../errors.js';
import { bindArgs, splitArgs } from '../jobs/args.js';
import type { RunnerFunctionSpec } from './define.js';
import type { RunnerKind, RunnerLoader } from './loader.js';

export interface RunnerOutcome {
  return: unknown;
  success: boolean;
  retcode: number;
  /** The outputter the function declares. */
  outputter?: string;
  /** The arguments as called, Salt's `fun_args`: positionals then one keyword map if any. */
  funArgs: unknown[];
}

/** Positionals and keywords from a client's `arg` list (with `__kwarg__` maps or `k=v` words) and `kwarg` map. */
export function normalizeArgs(
  arg: unknown,
  kwarg: unknown,
): { args: unknown[]; kwargs: Record<string, unknown> } {
  const { args, kwargs } = splitArgs(Array.isArray(arg) ? arg : arg === undefined ? [] : [arg]);
  if (kwarg && typeof kwarg === 'object' && !Array.isArray(kwarg)) Object.assign(kwargs, kwarg);
  return { args, kwargs };
}

/** Salt's `fun_args`: the positionals, then the keywords as one map when there are any. */
export function funArgs(args: readonly unknown[], kwargs: Readonly<Record<string, unknown>>): unknown[] {
  return Object.keys(kwargs).length > 0 ? [...args, { ...kwargs }] : [...args];
}

function describeError(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return `non-error thrown: ${String(err)}`;
}

/**
 * Calls `fun` with a context made for it. `retcode()` reads what the function set with
 * `ctx.setRetcode` (Salt's `__context__['retcode']`).
 */
export async function invokeFunction<C>(
  kind: RunnerKind,
  loader: RunnerLoader<C>,
  fun: string,
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
  ctx: C,
  retcode: () => number = () => 0,
): Promise<RunnerOutcome> {
  const called = funArgs(args, kwargs);
  let spec: RunnerFunctionSpec<never, unknown, C> | undefined;
  try {
    spec = await loader.get(fun);
  } catch (err) {
    return { return: describeError(err), success: false, retcode: 1, funArgs: called };
  }
  if (!spec) {
    return { return: await loader.explain(fun), success: false, retcode: 1, funArgs: called };
  }
  const outputter = spec.outputter;
  let bound: { bound: Record<string, unknown>; extra: { args: unknown[]; kwargs: Record<string, unknown> } };
  try {
    bound = bindArgs(spec as unknown as Parameters<typeof bindArgs>[0], fun, args, kwargs);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      return: `\nPassed invalid arguments: ${message}\n\nUsage:\n${spec.doc ?? ''}`,
      success: false,
      retcode: 1,
      funArgs: called,
    };
  }
  try {
    const ret = await spec.run(ctx, bound.bound as never, bound.extra);
    const code = retcode();
    return {
      return: ret,
      success: code === 0,
      retcode: code,
      funArgs: called,
      ...(outputter && { outputter }),
    };
  } catch (err) {
    const text =
      err instanceof SaltError
        ? `Exception occurred in ${kind} ${fun}: ${err.code}: ${err.message}`
        : `Exception occurred in ${kind} ${fun}: ${describeError(err)}`;
    return { return: text, success: false, retcode: 1, funArgs: called };
  }
}
