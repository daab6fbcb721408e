/**
 * The execution-module loader: Salt's `salt.loader.minion_mods` / `LazyLoader` for tsalt.
 *
 * Search order, first match wins: `dirs` (extension_modules, module_dirs), then the directories
 * declared by the npm `packages` named in config, then `builtinDirs`. Files are mapped by stem
 * at the first access and imported lazily: asking for `foo.bar` imports `foo.js` only. A name no
 * file stem matches (a `virtual()` rename or an alias) makes the loader import the remaining
 * files once. Failures and refusals are kept with their reason for {@link ModuleLoader.explain}.
 *
 * Node's ESM loader cannot unload or re-evaluate a module: {@link ModuleLoader.reload} picks up
 * new files and re-runs `virtual()`, but a changed or fixed file needs a new process.
 */
import { pathToFileURL } from 'node:url';
import { SALT_ERR_LOADER_INVALID_UNIT } from '../errors.js';
import {
  type FunctionSpec,
  type ModuleDef,
  type ResolvedFunctionSpec,
  resolveFunctionArgs,
  type UnitLogger,
  type VirtualContext,
} from './define.js';
import { missingFunString, moduleOf } from './missing.js';
import { resolvePackageDirs } from './packages.js';
import { scanDirs, type UnitFile } from './scan.js';
import { readVirtualResult, type VirtualDecision, validateModuleDef } from './validate.js';

/** Options of {@link createModuleLoader}. */
export interface ModuleLoaderOptions {
  /** Directories in priority order, first match wins: `<extension_modules>/modules`, then `module_dirs`. */
  dirs: readonly string[];
  /** npm package names from config `extensions`; each one's `tsalt.<kind>` dir is searched after `dirs`. */
  packages?: readonly string[];
  /** Which folder of a package to search: `modules` (default) or `states`. */
  kind?: 'modules' | 'states';
  /** Built-in module directories, searched last (after `dirs` and `packages`). */
  builtinDirs?: readonly string[];
  /** Directory to resolve `packages` from. Default `process.cwd()`. */
  resolveFrom?: string;
  /** Config `disable_modules`: file stems and module names that never load. */
  disabled?: readonly string[];
  /** Also load `*.ts` files. Only when a TypeScript loader is registered: Node 20 cannot strip types. */
  tsLoader?: boolean;
  /** Handed to every module's `virtual()`. */
  virtualContext: VirtualContext;
  log: UnitLogger;
}

/** Lazy access to execution modules by `mod.fn` name. */
export interface ModuleLoader {
  /** The function `mod.fn`, importing its module on first access; `undefined` when not available. */
  get(fun: string): Promise<ResolvedFunctionSpec | undefined>;
  /**
   * Salt's text for why `fun` is not available: `'foo.bar' is not available.` or
   * `'foo' __virtual__ returned False: <reason>`. For a function that is available it
   * returns `'foo.bar' is available.`.
   */
  explain(fun: string): Promise<string>;
  /** Sorted `mod.fn` names of every loadable module (aliases included), or of one module. Imports all files. */
  listFunctions(moduleName?: string): Promise<string[]>;
  /** Sorted names of every loadable module, aliases included. Imports all files. */
  listModules(): Promise<string[]>;
  /** A module's `doc`, for `sys.doc`. */
  moduleDoc(name: string): Promise<string | undefined>;
  /** A function's `doc`, for `sys.doc`. */
  functionDoc(fun: string): Promise<string | undefined>;
  /** The file stem the module `moduleName` was loaded from (Salt's provider), or `undefined` when not loaded. */
  providerOf(moduleName: string): Promise<string | undefined>;
  /**
   * The path of the file a lookup of `moduleName` reads first (the first file named after it in
   * search order), without importing anything; undefined when no file is named after it.
   */
  fileOf(moduleName: string): Promise<string | undefined>;
  /**
   * Rescans the directories and packages and forgets every load and miss, so `virtual()` runs
   * again. ESM cannot unload modules: files already imported keep their first evaluation.
   */
  reload(): void;
  /** Per-loader scratch space handed to functions as `ctx.cache` (Salt's `__context__`). Survives `reload()`. */
  readonly cache: Map<string, unknown>;
}

/** A module registered under one name. */
interface Provider {
  readonly def: ModuleDef;
  readonly file: UnitFile;
  /** Registered under this name as an alias rather than as the module's name. */
  readonly alias: boolean;
}

/** Everything one scan knows; replaced wholesale by `reload()`. */
interface LoaderState {
  readonly dirs: readonly string[];
  readonly files: Map<string, UnitFile>;
  readonly ordered: UnitFile[];
  /** Files found by a rescan after a miss: they never take a name from an earlier file. */
  readonly late: Set<UnitFile>;
  readonly imports: Map<string, Promise<void>>;
  readonly modules: Map<string, Provider>;
  readonly missing: Map<string, string>;
  /** Names a rescan was already tried for. */
  readonly missed: Set<string>;
  readonly collisions: Set<string>;
  everything?: Promise<void>;
  complete: boolean;
  rescan?: Promise<void>;
}

function describe(err: unknown): string {
  return err instanceof Error ? String(err) : `non-error thrown: ${String(err)}`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function declaredName(namespace: unknown): string | undefined {
  const def = (namespace as { default?: { name?: unknown } } | null)?.default;
  const name = typeof def === 'object' && def !== null ? def.name : undefined;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** Rank of a provider for a name: the file named after it first, then a real name over an alias, then search order. */
function outranks(a: Provider, b: Provider, name: string): boolean {
  const ka = [a.file.stem === name ? 0 : 1, a.alias ? 1 : 0, a.file.rank];
  const kb = [b.file.stem === name ? 0 : 1, b.alias ? 1 : 0, b.file.rank];
  for (let i = 0; i < ka.length; i++) {
    const x = ka[i] ?? 0;
    const y = kb[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

class LazyModuleLoader implements ModuleLoader {
  readonly cache = new Map<string, unknown>();
  readonly #options: ModuleLoaderOptions;
  readonly #disabled: ReadonlySet<string>;
  readonly #log: UnitLogger;
  #state: Promise<LoaderState> | undefined;

  constructor(options: ModuleLoaderOptions) {
    this.#options = options;
    this.#disabled = new Set(options.disabled ?? []);
    this.#log = options.log;
  }

  reload(): void {
    this.#state = undefined;
  }

  async get(fun: string): Promise<ResolvedFunctionSpec | undefined> {
    const dot = fun.indexOf('.');
    if (dot <= 0 || dot === fun.length - 1) return undefined;
    const st = await this.#current();
    const mod = fun.slice(0, dot);
    await this.#resolve(st, mod);
    const spec = this.#lookup(st, mod, fun.slice(dot + 1));
    return spec && resolveFunctionArgs(spec);
  }

  async explain(fun: string): Promise<string> {
    const st = await this.#current();
    const mod = moduleOf(fun);
    await this.#resolve(st, mod);
    const dot = fun.indexOf('.');
    if (dot > 0 && this.#lookup(st, mod, fun.slice(dot + 1))) return `'${fun}' is available.`;
    return missingFunString(fun, st.modules.has(mod), st.missing.get(mod));
  }

  async listFunctions(moduleName?: string): Promise<string[]> {
    const st = await this.#current();
    await this.#importAll(st);
    const out: string[] = [];
    for (const [name, provider] of st.modules) {
      if (moduleName !== undefined && name !== moduleName) continue;
      for (const fn of Object.keys(provider.def.functions)) out.push(`${name}.${fn}`);
    }
    return out.sort();
  }

  async listModules(): Promise<string[]> {
    const st = await this.#current();
    await this.#importAll(st);
    return [...st.modules.keys()].sort();
  }

  async moduleDoc(name: string): Promise<string | undefined> {
    const st = await this.#current();
    await this.#resolve(st, name);
    return st.modules.get(name)?.def.doc;
  }

  async functionDoc(fun: string): Promise<string | undefined> {
    return (await this.get(fun))?.doc;
  }

  async providerOf(moduleName: string): Promise<string | undefined> {
    const st = await this.#current();
    await this.#resolve(st, moduleName);
    return st.modules.get(moduleName)?.file.stem;
  }

  async fileOf(moduleName: string): Promise<string | undefined> {
    if (this.#disabled.has(moduleName)) return undefined;
    return (await this.#current()).files.get(moduleName)?.path;
  }

  #lookup(st: LoaderState, mod: string, fn: string): FunctionSpec | undefined {
    const functions = st.modules.get(mod)?.def.functions;
    return functions && Object.hasOwn(functions, fn) ? functions[fn] : undefined;
  }

  #current(): Promise<LoaderState> {
    this.#state ??= this.#scan();
    return this.#state;
  }

  async #scan(): Promise<LoaderState> {
    const { packages = [], builtinDirs = [], resolveFrom = process.cwd(), kind = 'modules' } = this.#options;
    const packageDirs = resolvePackageDirs(packages, { resolveFrom, kind, log: this.#log });
    const dirs = [...this.#options.dirs, ...packageDirs, ...builtinDirs];
    const st: LoaderState = {
      dirs,
      files: new Map(),
      ordered: [],
      late: new Set(),
      imports: new Map(),
      modules: new Map(),
      missing: new Map(),
      missed: new Set(),
      collisions: new Set(),
      complete: false,
    };
    await this.#scanInto(st, false);
    this.#log.trace({ dirs, files: st.ordered.length }, 'module loader scanned');
    return st;
  }

  /** Scans `st.dirs` and adds files whose stem is new; returns the added files. */
  async #scanInto(st: LoaderState, late: boolean): Promise<UnitFile[]> {
    const found = await scanDirs(st.dirs, {
      tsLoader: this.#options.tsLoader ?? false,
      disabled: this.#disabled,
      log: this.#log,
    });
    for (const c of found.collisions) {
      const key = `${c.kept}\0${c.ignored}`;
      if (st.collisions.has(key)) continue;
      st.collisions.add(key);
      this.#log.warn(c, `module file collision: ${c.kept} shadows ${c.ignored}`);
    }
    const added: UnitFile[] = [];
    for (const file of found.ordered) {
      if (st.files.has(file.stem)) continue;
      const tracked: UnitFile = { ...file, rank: st.ordered.length };
      st.files.set(tracked.stem, tracked);
      st.ordered.push(tracked);
      if (late) st.late.add(tracked);
      added.push(tracked);
    }
    return added;
  }

  /** Makes `st.modules.get(name)` final for `name`, importing as little as possible. */
  async #resolve(st: LoaderState, name: string): Promise<void> {
    if (this.#disabled.has(name)) return;
    const known = st.modules.get(name);
    if (known && (known.file.stem === name || st.complete)) return;
    const byStem = st.files.get(name);
    if (byStem) {
      await this.#importFile(st, byStem);
      if (st.modules.get(name)?.file === byStem) return;
    }
    // No file is named after it (or that file did not provide it): a rename or an alias elsewhere.
    await this.#importAll(st);
    if (st.modules.has(name) || st.missed.has(name)) return;
    st.missed.add(name);
    await this.#rescan(st);
  }

  async #importAll(st: LoaderState): Promise<void> {
    st.everything ??= (async () => {
      for (const file of st.ordered) await this.#importFile(st, file);
      st.complete = true;
    })();
    await st.everything;
  }

  /** Salt re-reads the directories once when a name is missing: new files are imported, old ones kept. */
  async #rescan(st: LoaderState): Promise<void> {
    while (st.rescan) await st.rescan;
    st.rescan = (async () => {
      const added = await this.#scanInto(st, true);
      if (added.length > 0)
        this.#log.debug({ files: added.map((f) => f.path) }, 'module loader found new files');
      for (const file of added) await this.#importFile(st, file);
    })();
    try {
      await st.rescan;
    } finally {
      st.rescan = undefined;
    }
  }

  #importFile(st: LoaderState, file: UnitFile): Promise<void> {
    let pending = st.imports.get(file.stem);
    if (!pending) {
      pending = this.#loadFile(st, file);
      st.imports.set(file.stem, pending);
    }
    return pending;
  }

  async #loadFile(st: LoaderState, file: UnitFile): Promise<void> {
    let namespace: unknown;
    let def: ModuleDef;
    try {
      namespace = await import(pathToFileURL(file.path).href);
      def = validateModuleDef(namespace, file.path);
    } catch (err) {
      const reason =
        err instanceof SALT_ERR_LOADER_INVALID_UNIT
          ? err.message
          : `Failed to import ${file.path}: ${describe(err)}`;
      this.#fail(st, file, [file.stem, declaredName(namespace)], reason, err);
      return;
    }
    const names = [file.stem, def.name, ...(def.aliases ?? [])];
    let decision: VirtualDecision = { load: true, name: def.name };
    if (def.virtual) {
      try {
        decision = readVirtualResult(await def.virtual(this.#options.virtualContext), def, file.path);
      } catch (err) {
        const reason =
          err instanceof SALT_ERR_LOADER_INVALID_UNIT
            ? err.message
            : `Exception raised when processing __virtual__ function for ${def.name}. Module will not be loaded: ${messageOf(err)}`;
        this.#fail(st, file, names, reason, err);
        return;
      }
    }
    if (!decision.load) {
      this.#addMissing(st, names, decision.reason);
      this.#log.debug(
        { module: def.name, path: file.path, reason: decision.reason },
        'module refused to load by virtual()',
      );
      return;
    }
    if (this.#disabled.has(decision.name)) {
      this.#log.trace(
        { module: decision.name, path: file.path },
        'skipping module disabled by configuration',
      );
      return;
    }
    this.#register(st, decision.name, { def, file, alias: false });
    for (const alias of def.aliases ?? []) {
      if (alias !== decision.name && !this.#disabled.has(alias))
        this.#register(st, alias, { def, file, alias: true });
    }
    this.#log.trace({ module: decision.name, path: file.path }, 'module loaded');
  }

  /** A broken unit: kept missing with `reason`, logged once at warn. */
  #fail(
    st: LoaderState,
    file: UnitFile,
    names: ReadonlyArray<string | undefined>,
    reason: string,
    err: unknown,
  ) {
    this.#addMissing(st, names, reason);
    this.#log.warn({ module: file.stem, path: file.path, err }, `module not loaded: ${reason}`);
  }

  /** Records `reason` under each name; several failures for one name are joined with `; ` as Salt does. */
  #addMissing(st: LoaderState, names: ReadonlyArray<string | undefined>, reason: string): void {
    for (const name of new Set(names)) {
      if (name === undefined || this.#disabled.has(name)) continue;
      const prior = st.missing.get(name);
      if (prior === undefined || prior === '') st.missing.set(name, reason);
      else if (reason !== '' && !prior.split('; ').includes(reason))
        st.missing.set(name, `${prior}; ${reason}`);
    }
  }

  #register(st: LoaderState, name: string, next: Provider): void {
    const current = st.modules.get(name);
    if (!current) {
      st.modules.set(name, next);
      return;
    }
    if (current.file === next.file) return;
    const replace = !st.late.has(next.file) && outranks(next, current, name);
    const [kept, ignored] = replace ? [next, current] : [current, next];
    if (replace) st.modules.set(name, next);
    this.#log.warn(
      { module: name, kept: kept.file.path, ignored: ignored.file.path },
      `module name collision: '${name}' from ${kept.file.path} shadows ${ignored.file.path}`,
    );
  }
}

/**
 * Creates the lazy execution-module loader. Nothing is read from disk until the first call.
 * @example
 * const loader = createModuleLoader({
 *   dirs: [join(opts.extension_modules, 'modules'), ...opts.module_dirs],
 *   packages: opts.extensions,
 *   builtinDirs: [builtinModulesDir],
 *   disabled: opts.disable_modules,
 *   virtualContext: { opts, grains },
 *   log,
 * });
 * const spec = await loader.get('test.ping');
 * if (!spec) ret.return = await loader.explain('test.ping');
 */
export function createModuleLoader(options: ModuleLoaderOptions): ModuleLoader {
  return new LazyModuleLoader(options);
}
