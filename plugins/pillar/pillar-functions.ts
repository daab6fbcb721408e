/**
 * The `salt[...]` functions of pillar templates compiled on the master (Salt's `Pillar.__init__`,
 * which loads `minion_mods` with the master's options turned into the requesting minion's: its
 * id and grains, `file_client: local`, its saltenv and pillarenv). The functions run ON THE
 * MASTER, as in Salt: `salt['cmd.run']` runs a command on the master host, `salt['grains.*']`
 * read the requesting minion's grains, `salt['config.get']('id')` is the minion's id, and
 * `salt['pillar.get']` sees no pillar (the master has none of its own), so it answers its default.
 *
 * One module loader serves every compile of a process (modules are imported on their first
 * call only, never all at once); each compile gets its own context (`__context__` cache, grains,
 * id), so nothing one minion's render leaves behind reaches another's.
 */
import { join } from 'node:path';
import {
  callFunction,
  createModuleLoader,
  type ExecContext,
  functionTable,
  type ModuleLoader,
  type UnitLogger,
} from '../../kernel/index.js';
import { bindArgs, unwrapRetcode } from '../../kernel/util.js';
import { BUILTIN_DIRS } from '../builtin-dirs.js';
import type { SaltFunctions } from '../renderers/index.js';
import { DEFAULT_RENDER_LIMITS, lookedUpSaltFunctions } from '../renderers/light/index.js';

/** Who a compile is for: the parts of its request (compile.ts's `PillarRequest`) the functions see. */
export interface PillarAsker {
  id: string;
  grains: Readonly<Record<string, unknown>>;
  saltenv: string | null;
}

/** Gives the functions a render of `req`'s pillar calls (one set per compile). */
export type PillarFunctions = (req: PillarAsker, pillarenv: string | null) => SaltFunctions;

/**
 * The functions of `ctx` as a pillar template calls them (Salt's `__salt__`; `has` answers as the
 * minion's templates do). Each runs with `__pillar_render` in its options, where `pillar.items`
 * answers the pillar it sees instead of compiling again: Salt recurses there without end.
 */
export function saltFunctionsOf(ctx: ExecContext, known = new Map<string, boolean>()): SaltFunctions {
  const runCtx = ctx.opts.__pillar_render
    ? ctx
    : (Object.create(ctx, {
        opts: { value: Object.freeze({ ...ctx.opts, __pillar_render: true }), enumerable: true },
      }) as ExecContext);
  return lookedUpSaltFunctions(
    async (fun, args, kwargs) => {
      const spec = await ctx.functions.get(fun);
      if (!spec) return ctx.call(fun, args, kwargs);
      const { bound, extra } = bindArgs(spec, fun, [...args], { ...kwargs });
      return unwrapRetcode(await spec.run(runCtx, bound, extra)).value;
    },
    async (fun) => (await ctx.functions.get(fun)) !== undefined,
    known,
  );
}

/** The master options flattened (plugin options kept in `extra` at the top level, as Salt's opts). */
function flat(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const extra = config.extra;
  return extra && typeof extra === 'object'
    ? { ...(extra as Record<string, unknown>), ...config }
    : { ...config };
}

/** The module folders of the master (Salt's `_module_dirs` for a master's `minion_mods`). */
function moduleDirs(config: Readonly<Record<string, unknown>>): string[] {
  const dirs: string[] = [];
  if (typeof config.extension_modules === 'string' && config.extension_modules)
    dirs.push(join(config.extension_modules, 'modules'));
  if (Array.isArray(config.module_dirs)) dirs.push(...config.module_dirs.map(String));
  return dirs;
}

/**
 * The functions of pillar renders on the master with `config`: a lazy module loader made at the
 * first compile, and per compile a context that is the requesting minion's.
 */
export function masterPillarFunctions(
  config: Readonly<Record<string, unknown>>,
  log: UnitLogger,
): PillarFunctions {
  const base = flat(config);
  let loader: ModuleLoader | undefined;
  // which names exist does not depend on the minion: one answer per process
  const known = new Map<string, boolean>();
  return (req, pillarenv) => {
    const opts = Object.freeze({
      ...base,
      id: req.id,
      grains: req.grains,
      file_client: 'local',
      saltenv: req.saltenv,
      pillarenv,
      __role: 'master',
      __pillar_render: true,
    });
    loader ??= createModuleLoader({
      dirs: moduleDirs(config),
      builtinDirs: [BUILTIN_DIRS.modules],
      virtualContext: { opts: base, grains: {} },
      tsLoader: import.meta.url.endsWith('.ts'),
      log,
    });
    const own = loader;
    const ctx: ExecContext = {
      opts,
      grains: req.grains,
      id: req.id,
      jid: 'req',
      log,
      // a template's call ends with its render at the latest (the render's own time limit)
      signal: AbortSignal.timeout(DEFAULT_RENDER_LIMITS.timeoutMs),
      cache: new Map(),
      functions: functionTable(own),
      call: (fun, args = [], kwargs = {}) => callFunction(own, ctx, fun, args, kwargs),
    };
    return saltFunctionsOf(ctx, known);
  };
}
