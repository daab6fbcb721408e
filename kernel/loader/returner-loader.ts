/**
 * Finds returners by name, as Salt's `salt.loader.returners`: returners registered by kernel
 * plugins first, then unit files in `<extension_modules>/returners` and `returner_dirs`, then
 * the `tsalt.returners` folder of each `extensions` package, then the built-in returners the
 * caller passes (plugins/builtin-dirs.ts).
 * A unit file default-exports a `defineReturner(...)`; its `name` is what `--return` and
 * `master_job_cache` use (a file named after the returner is tried first, the rest only when
 * that fails). Each returner's `virtual()` runs once per process.
 */
import { SALT_ERR_RETURNER_UNAVAILABLE } from '../errors.js';
import { isRecord } from '../guards.js';
import type { ReturnerContext, ReturnerDef } from '../jobs/returner.js';
import { type ReturnerCallOptions, returnerContext } from '../jobs/returner-options.js';
import type { UnitLogger } from './define.js';
import { createNamedUnitFinder } from './named-units.js';
import { readVirtualResult } from './validate.js';

/** Options of {@link createReturnerLoader}. */
export interface ReturnerLoaderOptions {
  /** Folders in priority order: `<extension_modules>/returners`, then `returner_dirs`. */
  dirs: readonly string[];
  /** npm package names from config `extensions`. */
  packages?: readonly string[];
  /** Where `packages` resolve from. Default `process.cwd()`. */
  resolveFrom?: string;
  /** The built-in returners, name → entry file, tried last (the caller's: the kernel knows none). */
  builtin: Readonly<Record<string, URL>>;
  /** Returner names never loaded (`disable_returners`). */
  disabled?: readonly string[];
  /** Returners registered by kernel plugins (they win over files). */
  registered?: (name: string) => ReturnerDef | undefined;
  /** The daemon's resolved config: handed to `virtual()` and to each returner's context. */
  opts: Readonly<Record<string, unknown>>;
  log: UnitLogger;
}

/** A loaded returner with a way to build its context. */
export interface LoadedReturner {
  readonly def: ReturnerDef;
  /** Where it came from: `plugin`, `builtin` or a file path. */
  readonly source: string;
}

export interface ReturnerLoader {
  /**
   * The returner called `name`.
   * @throws SALT_ERR_RETURNER_UNAVAILABLE when none is found, it is disabled, or its `virtual()` refuses
   */
  get(name: string): Promise<LoadedReturner>;
  /** Builds a validated context for `def` (options from config, `ret_config`, `ret_kwargs`). */
  context(def: ReturnerDef, call?: ReturnerCallOptions): ReturnerContext;
  /** Names of the returners that loaded in this process (for `close()` at shutdown). */
  loaded(): LoadedReturner[];
}

/** The unit's definition, or why it is not a returner. */
export function readReturnerDef(namespace: unknown): ReturnerDef | string {
  const def = isRecord(namespace) ? namespace.default : undefined;
  if (!isRecord(def)) return 'the default export is not a returner definition (use defineReturner)';
  if (typeof def.name !== 'string' || def.name === '') return '`name` must be a non-empty string';
  if (typeof def.returner !== 'function') return '`returner` must be a function';
  if (def.virtual !== undefined && typeof def.virtual !== 'function') return '`virtual` must be a function';
  return def as unknown as ReturnerDef;
}

export function createReturnerLoader(options: ReturnerLoaderOptions): ReturnerLoader {
  const { log } = options;
  const disabled = new Set(options.disabled ?? []);
  const settled = new Map<string, Promise<LoadedReturner>>();
  const done: LoadedReturner[] = [];
  const finder = createNamedUnitFinder<ReturnerDef>({
    kind: 'returners',
    dirs: options.dirs,
    packages: options.packages ?? [],
    resolveFrom: options.resolveFrom ?? process.cwd(),
    builtin: options.builtin,
    read: readReturnerDef,
    nameOf: (def) => def.name,
    log,
  });

  const find = async (name: string): Promise<LoadedReturner | undefined> => {
    const registered = options.registered?.(name);
    if (registered) return { def: registered, source: 'plugin' };
    try {
      return await finder.find(name);
    } catch (err) {
      throw new SALT_ERR_RETURNER_UNAVAILABLE(name, (err as Error).message);
    }
  };

  const load = async (name: string): Promise<LoadedReturner> => {
    if (disabled.has(name)) throw new SALT_ERR_RETURNER_UNAVAILABLE(name, 'disabled by disable_returners');
    const found = await find(name);
    if (!found) throw new SALT_ERR_RETURNER_UNAVAILABLE(name, `'${name}' is not available`);
    if (found.def.virtual) {
      const ctx = returnerContext(found.def, options.opts, log);
      const decision = readVirtualResult(await found.def.virtual(ctx), { name, functions: {} }, found.source);
      if (!decision.load) {
        throw new SALT_ERR_RETURNER_UNAVAILABLE(
          name,
          decision.reason || `'${name}' __virtual__ returned False`,
        );
      }
    }
    done.push(found);
    return found;
  };

  return {
    get(name) {
      let p = settled.get(name);
      if (!p) {
        p = load(name);
        settled.set(name, p);
      }
      return p;
    },
    context(def, call) {
      return returnerContext(def, options.opts, log, call);
    },
    loaded: () => [...done],
  };
}
