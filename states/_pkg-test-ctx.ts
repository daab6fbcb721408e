/**
 * Test support for the pkg and service states: a state context whose `ctx.call` runs the real
 * `pkg`, `service` and `cmd` execution modules (through the real argument binding), with
 * `test` on or off. Each module's `virtual()` runs first, as the loader runs it, so the functions
 * a module offers are this machine's. No mocks: the modules act on this machine.
 */
import {
  type ExecContext,
  type ModuleDef,
  type ResolvedFunctionSpec,
  resolveFunctionArgs,
  SaltError,
} from '../kernel/index.js';
import { bindArgs, unwrapRetcode } from '../kernel/util.js';
import { fakeCtx } from '../modules/_fake-ctx.js';
import cmdModule from '../modules/cmd.js';
import pkgModule from '../modules/pkg.js';
import serviceModule from '../modules/service.js';
import type { StateContext, StateModuleDef, StateReturn } from '../plugins/states/index.js';

const MODULES: Readonly<Record<string, ModuleDef>> = {
  cmd: cmdModule,
  pkg: pkgModule,
  service: serviceModule,
};

/** `mod.fn` as the loader would find it here: after the module's `virtual()` said yes. */
async function lookup(fun: string, grains: ExecContext['grains']): Promise<ResolvedFunctionSpec | undefined> {
  const dot = fun.indexOf('.');
  const mod = MODULES[fun.slice(0, dot)];
  if (!mod) return undefined;
  if (mod.virtual && (await mod.virtual({ opts: {}, grains })) !== true) return undefined;
  const found = mod.functions[fun.slice(dot + 1)];
  return found && resolveFunctionArgs(found);
}

/** An execution context whose `call` reaches the pkg and service modules. */
export function execCtx(over: Partial<ExecContext> = {}): ExecContext {
  const base = fakeCtx();
  const ctx: ExecContext = fakeCtx({
    grains: { os: 'Debian', os_family: 'Debian', kernel: 'Linux', cpuarch: 'x86_64' },
    cache: new Map(),
    functions: { ...base.functions, get: (fun) => lookup(fun, ctx.grains) },
    ...over,
    call: async (fun, args = [], kwargs = {}) => {
      const spec = await lookup(fun, ctx.grains);
      if (!spec) throw new SaltError('SALT_ERR_LOADER_NOT_AVAILABLE', `'${fun}' is not available.`);
      const { bound, extra } = bindArgs(spec, fun, [...args], { ...kwargs });
      return unwrapRetcode(await spec.run(ctx, bound, extra)).value;
    },
  });
  return ctx;
}

/** A state context on top of {@link execCtx}. */
export function stateCtx(test: boolean, exec: ExecContext = execCtx()): StateContext {
  const sctx = Object.create(exec) as StateContext;
  Object.defineProperties(sctx, {
    test: { value: test, enumerable: true },
    saltenv: { value: 'base', enumerable: true },
    low: { value: {}, enumerable: true },
    pillar: { value: {}, enumerable: true },
    running: { value: {}, enumerable: true },
    state: {
      value: () => {
        throw new Error('ctx.state is not used by these states');
      },
    },
  });
  return sctx;
}

/** Runs state function `fun` of `mod` with keywords (unknown ones land in its `**kwargs`). */
export async function runState(
  mod: StateModuleDef,
  fun: string,
  kwargs: Record<string, unknown>,
  test = false,
  exec?: ExecContext,
): Promise<StateReturn> {
  const found = mod.functions[fun];
  if (!found) throw new Error(`${mod.name}.${fun} is not defined`);
  const spec = await resolveFunctionArgs(found as Parameters<typeof resolveFunctionArgs>[0]);
  const { bound, extra } = bindArgs(spec, `${mod.name}.${fun}`, [], { ...kwargs });
  return (await found.run(stateCtx(test, exec), bound as never, extra)) as StateReturn;
}
