/**
 * The renderer plugin kind's types (Salt's `salt/renderers/*.py` interface): a renderer is a
 * named async function of (input, context) → output, chained by a `#!jinja|yaml` pipeline.
 * The context carries what Salt's renderers receive as globals (`grains`, `pillar`, `opts`,
 * `salt`, `saltenv`, `sls`, `slspath`, `tpldir`, `tplfile`) and a `loadFile` callback the
 * caller supplies for `salt://` imports and includes.
 */

/**
 * The execution-module functions a template calls as `salt['mod.fn'](...)` or `salt.mod.fn(...)`
 * (Salt's `__salt__`); the minion's `ExecContext.call` fits `call` as it is.
 */
export interface SaltFunctions {
  /** Runs `fun` with Python-style arguments; may return a promise, which the template awaits. */
  call(fun: string, args: readonly unknown[], kwargs: Readonly<Record<string, unknown>>): unknown;
  /** Whether `fun` exists (`salt['mod.fn'] is defined`, `'mod.fn' in salt`). */
  has(fun: string): boolean;
  /**
   * Looks up the functions a template's text names before it renders, so `has` can answer
   * exactly for them (the lookup is asynchronous, `has` is not). Optional.
   */
  prepare?(source: string): Promise<void>;
}

/** A file fetched by `salt://` path for `{% import %}`, `{% include %}`, `import_yaml`, ... */
export interface LoadedFile {
  /** The file's text. */
  readonly source: string;
  /** Where it came from, for error messages and `tplfile` (a path or a `salt://` URL). */
  readonly path: string;
}

/**
 * Loads another template by name (`x/map.jinja`, `salt://x/map.jinja`, relative `./y.jinja`
 * already resolved against `tpldir`) in `saltenv`. Rejects (or returns undefined) when missing.
 */
export type LoadFile = (name: string, saltenv: string) => Promise<LoadedFile | undefined>;

/** What every renderer gets besides its input: Salt's template globals plus the loader. */
export interface RenderContext {
  readonly grains: Readonly<Record<string, unknown>>;
  readonly pillar: Readonly<Record<string, unknown>>;
  readonly opts: Readonly<Record<string, unknown>>;
  /** `salt['mod.fn']`: execution-module functions by dotted name (salt-functions.ts builds one from a record). */
  readonly salt: SaltFunctions;
  readonly saltenv: string;
  /** The SLS id (`nginx.config`), empty outside SLS rendering. */
  readonly sls?: string;
  /** The SLS's folder with `/` (`nginx`), as Salt's `slspath`. */
  readonly slspath?: string;
  /** The template's folder relative to the file root (`nginx`), as Salt's `tpldir`. */
  readonly tpldir?: string;
  /** The template's path relative to the file root (`nginx/init.sls`), as Salt's `tplfile`. */
  readonly tplfile?: string;
  /** Loads `salt://` files for imports and includes; without it they are errors. */
  readonly loadFile?: LoadFile;
  /** Extra template variables (Salt's `context`/`defaults` of `file.managed`). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** Bounds on one render, so a bad template cannot hang or exhaust a daemon. */
export interface RenderLimits {
  /** Wall-clock time for the whole pipeline, ms (default 30,000). */
  readonly timeoutMs: number;
  /** Nesting of includes/imports/macro calls (default 64; Python's recursion is ~1000 frames). */
  readonly maxDepth: number;
  /** Loop iterations over the whole render (default 10,000,000). */
  readonly maxIterations: number;
  /** Size of the rendered text, characters (default 64 MiB). */
  readonly maxOutput: number;
  /** YAML nodes built per document, aliases counted at full size (default 1,000,000; stops alias bombs). */
  readonly maxYamlNodes: number;
}

/** One step's options: the rest of its `#!` part (`#!yaml strict`), the file's path, limits. */
export interface RenderStep {
  /** The file being rendered (for errors), a path or `salt://` URL. */
  readonly path: string;
  /** Words after the renderer name in its pipeline part (Salt's `argline`). */
  readonly argline: string;
  readonly limits: RenderLimits;
  /** The chain of files that led here (outermost first), for error messages. */
  readonly chain: readonly string[];
  /** Called between steps of long work; throws SALT_ERR_RENDER_LIMIT once the time is up. */
  checkDeadline(): void;
  /** The pipeline's renderers by name, for a renderer that runs others (Salt's `renderers` kwarg: stateconf). */
  readonly renderers?: ReadonlyMap<string, RendererDef>;
}

/** A renderer: Salt's `render(data, saltenv, sls, argline, **kws)`. */
export interface RendererDef {
  /** The name used in `#!` lines (`jinja`, `yaml`, ...), unique among renderers. */
  readonly name: string;
  /** Renders the previous step's output (text, or data for data→data renderers like gpg). */
  render(input: unknown, context: RenderContext, step: RenderStep): Promise<unknown>;
}

declare module '../../kernel/kinds.js' {
  interface PluginKinds {
    renderers: RendererDef;
  }
}
