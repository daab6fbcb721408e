/**
 * Test support for the runtime (its tests only; `.test-d.ts` keeps it out of the build checks and the test run): a RunContext over the real state
 * loader (the built-in `states/` folder plus any folder given) and the real execution
 * modules, so `onlyif: 'false'` runs a real shell through `cmd.retcode`.
 */
import type { ExecContext } from '../../../kernel/index.js';
import { RetcodeResult } from '../../../kernel/index.js';
import { createModuleLoader } from '../../../kernel/loader/index.js';
import { bindArgs } from '../../../kernel/util.js';
import { fakeCtx, memoryLogger } from '../../../modules/_fake-ctx.js';
import { BUILTIN_DIRS } from '../../builtin-dirs.js';
import { stateFunctions } from '../state-functions.js';
import type { RunContext, StateResult } from '../types.js';

export interface HarnessOptions {
  test?: boolean;
  failhard?: boolean;
  pillar?: Record<string, unknown>;
  /** More folders of state modules, searched before the built-ins. */
  stateDirs?: string[];
  grains?: Record<string, unknown>;
  opts?: Record<string, unknown>;
}

/** A RunContext for tests and the progress calls it received. */
export function harness(o: HarnessOptions = {}): RunContext & { events: [string, StateResult][] } {
  const log = memoryLogger();
  const modules = createModuleLoader({
    kind: 'modules',
    dirs: [],
    builtinDirs: [BUILTIN_DIRS.modules],
    virtualContext: { opts: {}, grains: {} },
    tsLoader: true,
    log,
  });
  const states = createModuleLoader({
    kind: 'states',
    dirs: o.stateDirs ?? [],
    builtinDirs: [BUILTIN_DIRS.states],
    virtualContext: { opts: {}, grains: {} },
    tsLoader: true,
    log,
  });
  const ctx: ExecContext = fakeCtx({
    opts: { pillar: o.pillar ?? {}, ...o.opts },
    grains: o.grains ?? {},
    log,
    async call(fun, args = [], kwargs = {}) {
      const spec = await modules.get(fun);
      if (!spec) throw new Error(`'${fun}' is not available.`);
      const { bound, extra } = bindArgs(spec, fun, [...args], { ...kwargs });
      const value = await spec.run(ctx, bound, extra);
      return value instanceof RetcodeResult ? value.value : value;
    },
    functions: {
      list: (m) => modules.listFunctions(m),
      modules: () => modules.listModules(),
      get: (fun) => modules.get(fun),
      moduleDoc: async () => undefined,
      explain: (fun) => modules.explain(fun),
      provider: async () => undefined,
    },
  });
  const events: [string, StateResult][] = [];
  return {
    exec: ctx,
    states: stateFunctions(states, ctx),
    test: o.test ?? false,
    failhard: o.failhard ?? false,
    pillar: o.pillar ?? {},
    progress: (tag, result) => events.push([tag, result]),
    events,
  };
}
