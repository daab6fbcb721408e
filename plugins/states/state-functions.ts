/**
 * The state functions a job can run (`ExecContext.states`, Salt's `__states__` loader): state
 * modules looked up by `mod.fn` in the state loader, run with a {@link StateContext} built on
 * the job's execution context. Keywords a function does not accept are dropped, as Salt's
 * `format_call` drops them, so the low chunk's requisites and global arguments never reach it.
 */
import { SaltError } from '../../kernel/errors.js';
import type { ExecContext, FunctionIndex, ModuleLoader } from '../../kernel/index.js';
import { bindArgs, optionalKeys } from '../../kernel/jobs/args.js';
import type { StateCallOptions, StateContext, StateFunctions, StateReturn } from './define.js';

function keysOf(spec: { args?: unknown; varkw?: boolean }): readonly string[] | 'any' {
  if (spec.varkw) return 'any';
  const args = spec.args as { shape?: Record<string, unknown> } | undefined;
  return args?.shape ? Object.keys(args.shape) : [];
}

/** The arguments without a default, in order (Python's argspec `args` minus `defaults`). */
function requiredArgKeys(spec: { args?: unknown }): string[] {
  const schema = spec.args as Parameters<typeof optionalKeys>[0] | undefined;
  if (!schema?.shape) return [];
  const optional = optionalKeys(schema);
  return Object.keys(schema.shape).filter((k) => !optional.has(k));
}

function pillarOf(ctx: ExecContext): Readonly<Record<string, unknown>> {
  const p = ctx.opts.pillar;
  return p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
}

/** The state loader as `sys.state_*` read it (the kernel's `functionTable` is not behind a door built-ins may use). */
function stateIndex(loader: ModuleLoader): FunctionIndex {
  return {
    list: (moduleName) => loader.listFunctions(moduleName),
    modules: () => loader.listModules(),
    get: (fun) => loader.get(fun),
    moduleDoc: (name) => loader.moduleDoc(name),
    explain: (fun) => loader.explain(fun),
    provider: (name) => loader.providerOf(name),
  };
}

/** The state functions of `loader`, run on top of the job context `ctx`. */
export function stateFunctions(loader: ModuleLoader, ctx: ExecContext): StateFunctions {
  const states: StateFunctions = {
    index: stateIndex(loader),
    has: async (fun) => (await loader.get(fun)) !== undefined,
    explain: (fun) => loader.explain(fun),
    list: (moduleName) => loader.listFunctions(moduleName),
    async accepts(fun) {
      const spec = await loader.get(fun);
      return spec ? keysOf(spec) : undefined;
    },
    async required(fun) {
      const spec = await loader.get(fun);
      return spec ? requiredArgKeys(spec) : undefined;
    },
    async call(fun, kwargs, options) {
      const spec = await loader.get(fun);
      if (!spec) throw new SaltError('SALT_ERR_LOADER_NOT_AVAILABLE', await loader.explain(fun));
      const keys = keysOf(spec);
      const given: Record<string, unknown> =
        keys === 'any'
          ? { ...kwargs }
          : Object.fromEntries(Object.entries(kwargs).filter(([k]) => keys.includes(k)));
      // Salt's format_call: an argument the function names takes its value from the low chunk,
      // a state-system keyword included (file.managed's own check_cmd)
      const low = options?.low;
      const shape = (spec.args as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
      if (low) for (const k of Object.keys(shape)) if (!(k in given) && k in low) given[k] = low[k];
      const { bound, extra } = bindArgs(spec, fun, [], given);
      const sctx = stateContext(ctx, states, fun, options);
      return (await spec.run(sctx, bound, extra)) as StateReturn;
    },
  };
  return states;
}

function stateContext(
  ctx: ExecContext,
  states: StateFunctions,
  fun: string,
  options: StateCallOptions,
): StateContext {
  const dot = fun.indexOf('.');
  const low = options.low ?? { state: fun.slice(0, dot), fun: fun.slice(dot + 1) };
  const saltenv = options.saltenv ?? 'base';
  const pillar = options.pillar ?? pillarOf(ctx);
  // the job context's getters (grains, signal, master) stay lazy: it is the prototype
  const sctx = Object.create(ctx) as StateContext;
  Object.defineProperties(sctx, {
    test: { value: options.test, enumerable: true },
    saltenv: { value: saltenv, enumerable: true },
    low: { value: low, enumerable: true },
    pillar: { value: pillar, enumerable: true },
    running: { value: options.running ?? {}, enumerable: true },
    state: {
      value: (other: string, kwargs: Readonly<Record<string, unknown>>) =>
        states.call(other, kwargs, { ...options, low: undefined, saltenv, pillar }),
    },
  });
  return sctx;
}
