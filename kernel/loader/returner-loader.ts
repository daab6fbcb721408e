/**
 * Finds returners by name, as Salt's `salt.loader.returners`: returners registered by kernel
 * plugins first, then unit files in `<extension_modules>/returners` and `returner_dirs`, then
 * the `tsalt.returners` folder of each `extensions` package, then the built-in returners.
 * A unit file default-exports a `defineReturner(...)`; its `name` is what `--return` and
 * `master_job_cache` use (a file named after the returner is tried first, the rest only when
 * that fails). Each returner's `virtual()` runs once per process.
 */
import { pathToFileURL } from 'node:url';
import { SALT_ERR_RETURNER_UNAVAILABLE } from '../errors.js';
import type { ReturnerContext, ReturnerDef } from '../jobs/returner.js';
import { type ReturnerCallOptions, returnerContext } from '../jobs/returner-options.js';
import type { UnitLogger } from './define.js';
import { resolvePackageDirs } from './packages.js';
import { scanDirs, type UnitFile } from './scan.js';
import { readVirtualResult } from './validate.js';

/** The built-in returners: name → module path relative to this file (compiled into dist/). */
const BUILTIN: Readonly<Record<string, string>> = {
  local_cache: '../../returners/local-cache.js',
  job_store: '../../returners/job-store/index.js',
  postgres: '../../returners/postgres/index.js',
  redis: '../../returners/redis/index.js',
};

/** Options of {@link createReturnerLoader}. */
export interface ReturnerLoaderOptions {
  /** Folders in priority order: `<extension_modules>/returners`, then `returner_dirs`. */
  dirs: readonly string[];
  /** npm package names from config `extensions`. */
  packages?: readonly string[];
  /** Where `packages` resolve from. Default `process.cwd()`. */
  resolveFrom?: string;
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  let files: Promise<readonly UnitFile[]> | undefined;
  let byName: Promise<Map<string, UnitFile>> | undefined;

  const unitFiles = (): Promise<readonly UnitFile[]> => {
    files ??= (async () => {
      const packageDirs = resolvePackageDirs(options.packages ?? [], {
        resolveFrom: options.resolveFrom ?? process.cwd(),
        kind: 'returners',
        log,
      });
      const found = await scanDirs([...options.dirs, ...packageDirs], { log });
      for (const c of found.collisions)
        log.warn(c, `returner file collision: ${c.kept} shadows ${c.ignored}`);
      return found.ordered;
    })();
    return files;
  };

  const importDef = async (path: string): Promise<ReturnerDef> => {
    let namespace: unknown;
    try {
      namespace = await import(pathToFileURL(path).href);
    } catch (err) {
      throw new SALT_ERR_RETURNER_UNAVAILABLE(path, `cannot be imported: ${(err as Error).message}`);
    }
    const def = readReturnerDef(namespace);
    if (typeof def === 'string') throw new SALT_ERR_RETURNER_UNAVAILABLE(path, def);
    return def;
  };

  // Every unit file's returner name (imports them all: only when the file-name guess failed).
  const indexByName = (): Promise<Map<string, UnitFile>> => {
    byName ??= (async () => {
      const out = new Map<string, UnitFile>();
      for (const file of await unitFiles()) {
        try {
          const def = await importDef(file.path);
          if (!out.has(def.name)) out.set(def.name, file);
        } catch (err) {
          log.warn({ path: file.path, err: (err as Error).message }, 'returner file skipped');
        }
      }
      return out;
    })();
    return byName;
  };

  const find = async (name: string): Promise<LoadedReturner | undefined> => {
    const registered = options.registered?.(name);
    if (registered) return { def: registered, source: 'plugin' };
    const all = await unitFiles();
    const guess = all.find((f) => f.stem === name || f.stem.replace(/-/g, '_') === name);
    let guessError: unknown;
    if (guess) {
      const def = await importDef(guess.path).catch((err: unknown) => {
        guessError = err;
        return undefined;
      });
      if (def?.name === name) return { def, source: guess.path };
    }
    const file = (await indexByName()).get(name);
    if (file) return { def: await importDef(file.path), source: file.path };
    // the file named after the returner is broken: say why rather than "not available"
    if (guessError) throw guessError;
    const builtin = BUILTIN[name];
    if (builtin) {
      const path = new URL(builtin, import.meta.url);
      const def = readReturnerDef(await import(path.href));
      if (typeof def === 'string') throw new SALT_ERR_RETURNER_UNAVAILABLE(name, def);
      return { def, source: 'builtin' };
    }
    return undefined;
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
