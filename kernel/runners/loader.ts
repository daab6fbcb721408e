/**
 * Loads runner and wheel modules with the execution-module loader: the same lazy import,
 * `virtual()`, aliases and explanations, over their own folders. Search order, first match
 * wins: `<extension_modules>/<kind>` (where `saltutil.sync_runners` puts files), the
 * `runner_dirs`/`wheel_dirs` config lists, the `tsalt.runners` folders of the npm
 * `extensions` packages, then the built-in folders the caller passes (plugins/builtin-dirs.ts).
 */
import { join } from 'node:path';
import type { UnitLogger } from '../loader/define.js';
import { createModuleLoader, type ModuleLoader } from '../loader/module-loader.js';
import { resolvePackageDirs } from '../loader/packages.js';
import type { RunnerContext, RunnerFunctionSpec, WheelContext } from './define.js';

export type RunnerKind = 'runner' | 'wheel';

function stringList(value: unknown): string[] {
  if (typeof value === 'string' && value) return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}

/** The folders searched for `kind`, in priority order (built-ins last). */
export function runnerSearchDirs(
  kind: RunnerKind,
  opts: Readonly<Record<string, unknown>>,
  log: UnitLogger,
): string[] {
  const extmods = typeof opts.extension_modules === 'string' ? opts.extension_modules : undefined;
  const folder = kind === 'runner' ? 'runners' : 'wheel';
  const configured = stringList(opts[kind === 'runner' ? 'runner_dirs' : 'wheel_dirs']);
  const packages =
    kind === 'runner'
      ? resolvePackageDirs(stringList(opts.extensions), {
          resolveFrom: typeof opts.config_dir === 'string' ? opts.config_dir : process.cwd(),
          kind: 'runners',
          log,
        })
      : [];
  return [...(extmods ? [join(extmods, folder)] : []), ...configured, ...packages];
}

/** Typed access to runner (or wheel) functions by `mod.fun`. */
export interface RunnerLoader<C> {
  get(fun: string): Promise<RunnerFunctionSpec<never, unknown, C> | undefined>;
  /** Salt's text for why `fun` is not available. */
  explain(fun: string): Promise<string>;
  listFunctions(moduleName?: string): Promise<string[]>;
  functionDoc(fun: string): Promise<string | undefined>;
  reload(): void;
}

function wrap<C>(loader: ModuleLoader): RunnerLoader<C> {
  return {
    get: async (fun) => (await loader.get(fun)) as RunnerFunctionSpec<never, unknown, C> | undefined,
    explain: (fun) => loader.explain(fun),
    listFunctions: (m) => loader.listFunctions(m),
    functionDoc: (fun) => loader.functionDoc(fun),
    reload: () => loader.reload(),
  };
}

function create(
  kind: RunnerKind,
  opts: Readonly<Record<string, unknown>>,
  log: UnitLogger,
  builtinDirs: readonly string[],
): ModuleLoader {
  return createModuleLoader({
    dirs: runnerSearchDirs(kind, opts, log),
    builtinDirs,
    disabled: stringList(opts[kind === 'runner' ? 'disable_runners' : 'disable_wheel']),
    virtualContext: { opts, grains: {} },
    // under vitest the built-ins are TypeScript sources
    tsLoader: import.meta.url.endsWith('.ts'),
    log,
  });
}

/** The runner loader; `builtinDirs` (the built-in runners) are searched last. */
export function createRunnerLoader(
  opts: Readonly<Record<string, unknown>>,
  log: UnitLogger,
  builtinDirs: readonly string[],
): RunnerLoader<RunnerContext> {
  return wrap(create('runner', opts, log, builtinDirs));
}

/** The wheel loader; `builtinDirs` (the built-in wheel modules) are searched last. */
export function createWheelLoader(
  opts: Readonly<Record<string, unknown>>,
  log: UnitLogger,
  builtinDirs: readonly string[],
): RunnerLoader<WheelContext> {
  return wrap(create('wheel', opts, log, builtinDirs));
}
