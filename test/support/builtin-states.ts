/**
 * The built-in state modules through a real state loader (the minion's, over states/), run on
 * top of a job context: what unit tests of state functions and of `sys.state_*` call.
 */
import type { ExecContext } from '../../kernel/index.js';
import { createModuleLoader } from '../../kernel/index.js';
import { fakeCtx, memoryLogger } from '../../modules/_fake-ctx.js';
import { BUILTIN_DIRS } from '../../plugins/builtin-dirs.js';
import type { StateFunctions } from '../../plugins/states/index.js';
import { stateFunctions } from '../../plugins/states/state-functions.js';

export function builtinStateFunctions(ctx: ExecContext = fakeCtx()): StateFunctions {
  const loader = createModuleLoader({
    kind: 'states',
    dirs: [],
    builtinDirs: [BUILTIN_DIRS.states],
    virtualContext: { opts: {}, grains: {} },
    tsLoader: true,
    log: memoryLogger(),
  });
  return stateFunctions(loader, ctx);
}
