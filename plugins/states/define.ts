/**
 * The typed shape of a state module (Salt's `salt/states/<name>.py`) and `defineStateModule`.
 * Not the kernel's: the states plugin declares the kind (and `ExecContext.states`) for the
 * minion's state loader, which is the execution-module loader over other folders.
 * A state module is found and loaded like an execution module (the same loader, Salt's search
 * order over `<extension_modules>/states`, `states_dirs`, the `tsalt.states` folder of the
 * `extensions` packages, then the built-ins) and its functions take their arguments the same
 * way; what differs is the context (`ctx.test`, the low chunk, `ctx.state` for Salt's
 * `__states__`) and the return, always `{ name, result, changes, comment }`.
 */
import type { z } from 'zod';
import type {
  ArgsBuilder,
  ExecContext,
  ExtraArgs,
  FunctionIndex,
  VirtualContext,
  VirtualResult,
} from '../../kernel/index.js';

/** What every state function returns (Salt's state return dict). */
export interface StateReturn {
  name: string;
  /** True: in the wanted state; false: failed; null: `test=True` and something would change. */
  result: boolean | null;
  /** What changed (or, under `test=True`, what would change); `{}` when nothing. */
  changes: Record<string, unknown>;
  /** What happened, for people; a list is joined with newlines by the state system. */
  comment: string | string[];
  /** Salt's `warnings`: shown by the highstate outputter. */
  warnings?: string[];
  /** Any other key a state module returns (Salt keeps them: `pchanges`, `__jid__`, ...). */
  [extra: string]: unknown;
}

/** How the state system runs one state function (Salt's `__opts__['test']`, `__env__`, `__low__`). */
export interface StateCallOptions {
  /** `test=True`: predict, change nothing. */
  test: boolean;
  /** The saltenv the state's SLS came from (default `base`). */
  saltenv?: string;
  /** The low chunk being run (Salt's `__low__`); default `{ state, fun, name }`. */
  low?: Readonly<Record<string, unknown>>;
  /** The pillar the run sees (a `pillar=` override merged in); default the minion's. */
  pillar?: Readonly<Record<string, unknown>>;
  /** The results of the states run so far, by tag (Salt's `__running__`, read by `mod_watch`). */
  running?: Readonly<Record<string, StateReturn>>;
}

/** The state functions a minion can run (`ExecContext.states`). */
export interface StateFunctions {
  /** The state loader's functions, specs and docs as `sys.state_*` show them. */
  readonly index: FunctionIndex;
  /** Whether `mod.fn` is a state function here (its module loaded and not refused by `virtual()`). */
  has(fun: string): Promise<boolean>;
  /** Salt's text for why `mod.fn` is not available (`'foo.bar' is not available.`). */
  explain(fun: string): Promise<string>;
  /** Sorted `mod.fn` names of every state module, or of one. */
  list(moduleName?: string): Promise<string[]>;
  /**
   * The keyword names `mod.fn` accepts (its schema's keys), or `'any'` when it takes `**kwargs`;
   * undefined when the function does not exist. The state system drops the others (Salt's
   * `format_call`) and may warn about them.
   */
  accepts(fun: string): Promise<readonly string[] | 'any' | undefined>;
  /**
   * The arguments `mod.fn` must be given, in order (those without a default, Salt's argspec
   * `args` minus `defaults`); undefined when the function does not exist. A chunk that lacks one
   * fails with `Missing parameter <arg> for state <mod.fn>` before the function runs.
   */
  required(fun: string): Promise<readonly string[] | undefined>;
  /**
   * Runs state function `mod.fn` with keywords (a low chunk's arguments: those it does not
   * accept are dropped). Throws SALT_ERR_LOADER_NOT_AVAILABLE for a missing function and
   * SALT_ERR_INVOCATION for arguments its schema refuses; whatever the function throws.
   */
  call(
    fun: string,
    kwargs: Readonly<Record<string, unknown>>,
    options: StateCallOptions,
  ): Promise<StateReturn>;
}

declare module '../../kernel/loader/define.js' {
  interface ExecContext {
    /** The state functions this minion can run (Salt's `__states__`); absent where no state loader is set up. */
    readonly states?: StateFunctions;
  }
}

/** What a state function receives first: an execution context plus the state run's own facts. */
export interface StateContext extends ExecContext {
  /** `test=True`: report what would change with `result: null`, change nothing. */
  readonly test: boolean;
  /** The saltenv of the state's SLS (Salt's `__env__`). */
  readonly saltenv: string;
  /** The low chunk being run (Salt's `__low__`). */
  readonly low: Readonly<Record<string, unknown>>;
  /** The pillar this run sees (Salt's `__pillar__`). */
  readonly pillar: Readonly<Record<string, unknown>>;
  /** The results of the states run so far, by tag (Salt's `__running__`); `{}` outside a run. */
  readonly running: Readonly<Record<string, StateReturn>>;
  /** Runs another state function with the same test flag and saltenv (Salt's `__states__`). */
  state(fun: string, kwargs: Readonly<Record<string, unknown>>): Promise<StateReturn>;
}

/** One state function: its arguments bind like an execution-module function's (`name` first). */
export interface StateFunctionSpec<S extends z.ZodObject = z.ZodObject> {
  /** The arguments: a zod object schema or a builder of one; `name` is its first key by convention. */
  args?: S | ArgsBuilder<S>;
  /** Collect positionals beyond `args` (rare for states). */
  varargs?: boolean;
  /** Accept any keyword (Python's `**kwargs`): the unknown ones arrive in `extra.kwargs`. */
  varkw?: boolean;
  /** First line: summary; the rest: details (`sys.state_doc`). */
  doc?: string;
  run(ctx: StateContext, args: z.output<S>, extra: ExtraArgs): StateReturn | Promise<StateReturn>;
}

/** Types a state function; the schema types `args`. */
export function defineState<S extends z.ZodObject>(
  spec: StateFunctionSpec<S> & { args: S | ArgsBuilder<S> },
): StateFunctionSpec<S>;
export function defineState(spec: Omit<StateFunctionSpec, 'args'>): StateFunctionSpec;
export function defineState(spec: StateFunctionSpec): StateFunctionSpec {
  return spec;
}

/** A state module: Salt's `salt/states/<name>.py`. */
export interface StateModuleDef {
  /** The name SLS files use: `file` in `file.managed`. */
  name: string;
  doc?: string;
  aliases?: readonly string[];
  /** Salt's `__virtual__`. */
  virtual?(ctx: VirtualContext): VirtualResult | Promise<VirtualResult>;
  /** The state functions by name; `mod_watch` is the one `watch` calls. */
  functions: Readonly<Record<string, StateFunctionSpec>>;
}

/**
 * Types a state module. The loader reads only the default export of a file in
 * `<extension_modules>/states/`, a `states_dirs` folder or a package's `tsalt.states` folder.
 * @example
 * export default defineStateModule({
 *   name: 'hello',
 *   functions: {
 *     present: defineState({
 *       args: (z) => z.object({ name: z.string() }),
 *       run: (ctx, { name }) => ({ name, result: ctx.test ? null : true, changes: {}, comment: 'ok' }),
 *     }),
 *   },
 * });
 */
export function defineStateModule<M extends StateModuleDef>(def: M): M {
  return def;
}
