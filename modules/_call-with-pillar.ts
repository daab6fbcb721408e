/**
 * `salt[...]` calls from a state run's templates with the run's pillar: with a `pillar=`
 * override on `state.apply`, Salt's `__pillar__` is the merged pillar for every function the
 * run's SLS files and templates call (`salt['pillar.get']` in a formula's map.jinja sees the
 * override). Without an override the calls go straight to `ctx.call`.
 */
import type { ExecContext } from '../kernel/index.js';
import { bindArgs, unwrapRetcode } from '../kernel/util.js';

type Call = (
  fun: string,
  args?: readonly unknown[],
  kwargs?: Readonly<Record<string, unknown>>,
) => Promise<unknown>;

/** A `call` that runs each function with `opts.pillar` set to `pillar`. */
export function callWithPillar(ctx: ExecContext, pillar: Readonly<Record<string, unknown>>): Call {
  if (pillar === ctx.opts.pillar) return (fun, args, kwargs) => ctx.call(fun, args, kwargs);
  const opts = Object.freeze({ ...ctx.opts, pillar });
  const runCtx = Object.create(ctx, { opts: { value: opts, enumerable: true } }) as ExecContext;
  return async (fun, args = [], kwargs = {}) => {
    const spec = await ctx.functions.get(fun);
    if (!spec) return ctx.call(fun, args, kwargs);
    const { bound, extra } = bindArgs(spec, fun, [...args], { ...kwargs });
    return unwrapRetcode(await spec.run(runCtx, bound, extra)).value;
  };
}
