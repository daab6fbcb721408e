/**
 * Test support for state modules: a StateContext whose `ctx.call` runs the real execution
 * modules it is given (their argument binding and retcode unwrapping as the minion does), and
 * a helper that runs one state function the way the state system does (unknown keywords
 * dropped unless it takes `**kwargs`).
 */
import { type ExecContext, type ModuleDef, resolveFunctionArgs, SaltError } from '../kernel/index.js';
import { bindArgs, unwrapRetcode } from '../kernel/util.js';
import { fakeCtx } from '../modules/_fake-ctx.js';
import type { StateContext, StateModuleDef, StateReturn } from '../plugins/states/index.js';

/** An ExecContext whose `call` reaches the functions of `modules`. */
export function moduleCtx(modules: readonly ModuleDef[], over: Partial<ExecContext> = {}): ExecContext {
  const ctx: ExecContext = fakeCtx({
    grains: { shell: '/bin/sh', os_family: 'Debian', kernel: 'Linux' },
    ...over,
    call: async (fun, args = [], kwargs = {}) => {
      const dot = fun.indexOf('.');
      const mod = modules.find((m) => m.name === fun.slice(0, dot));
      const found = mod?.functions[fun.slice(dot + 1)];
      if (!found) throw new SaltError('SALT_ERR_LOADER_NOT_AVAILABLE', `'${fun}' is not available.`);
      const spec = await resolveFunctionArgs(found);
      const { bound, extra } = bindArgs(spec, fun, [...args], { ...kwargs });
      return unwrapRetcode(await spec.run(ctx, bound, extra)).value;
    },
  });
  return ctx;
}

/** Runs state function `mod.fn` of `stateMod` with `kwargs` over `ctx`. */
export async function runState(
  stateMod: StateModuleDef,
  fn: string,
  kwargs: Record<string, unknown>,
  opts: { test?: boolean; ctx: ExecContext; saltenv?: string; states?: readonly StateModuleDef[] },
): Promise<StateReturn> {
  const found = stateMod.functions[fn];
  if (!found) throw new Error(`${stateMod.name}.${fn} is not defined`);
  const spec = await resolveFunctionArgs(found as never);
  const shape = (spec.args as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  const given = found.varkw ? kwargs : Object.fromEntries(Object.entries(kwargs).filter(([k]) => k in shape));
  const { bound, extra } = bindArgs(spec, `${stateMod.name}.${fn}`, [], given);
  const sctx = Object.create(opts.ctx) as StateContext;
  Object.defineProperties(sctx, {
    test: { value: opts.test ?? false },
    saltenv: { value: opts.saltenv ?? 'base' },
    low: { value: { state: stateMod.name, fun: fn, name: kwargs.name } },
    pillar: { value: {} },
    running: { value: {} },
    state: {
      value: async (fun: string, kw: Readonly<Record<string, unknown>>) => {
        const dot = fun.indexOf('.');
        const other = opts.states?.find((m) => m.name === fun.slice(0, dot));
        if (!other) throw new Error(`ctx.state('${fun}') is not wired in this test`);
        return runState(other, fun.slice(dot + 1), { ...kw }, opts);
      },
    },
  });
  return found.run(sctx, bound as never, extra);
}
