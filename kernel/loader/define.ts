/**
 * The typed shapes of loadable units (execution modules for now) and their `define*` helpers.
 * A unit file default-exports one `define*` call; the loader reads only the default export.
 */
import type { z } from 'zod';

/** A module's answer to `virtual()`: load it, refuse it with a reason, or load it under another name. */
export type VirtualResult = true | { ok: false; reason: string } | { name: string };

/** Structured logger handed to units (a pino child logger fits). */
export interface UnitLogger {
  trace(obj: object | string, msg?: string): void;
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

/** Grains: what a minion knows about itself. */
export type Grains = Readonly<Record<string, unknown>>;

/** What the loader tells functions about the functions it can load (for `sys.*`). */
export interface FunctionIndex {
  /** Sorted `mod.fn` names, of every loadable module or of one. */
  list(moduleName?: string): Promise<string[]>;
  /** Sorted names of every loadable module. */
  modules(): Promise<string[]>;
  /** The spec of `mod.fn` (its argument schema built), or undefined when it is not available. */
  get(fun: string): Promise<ResolvedFunctionSpec | undefined>;
  /** A module's doc. */
  moduleDoc(name: string): Promise<string | undefined>;
  /** Salt's text for why `mod.fn` is not available. */
  explain(fun: string): Promise<string>;
  /** The file stem module `moduleName` was loaded from (Salt's provider), or undefined when not loaded. */
  provider(moduleName: string): Promise<string | undefined>;
}

/** How a running function reaches the master and the minion's job pool (`ExecContext.master`). */
export interface MasterLink {
  /**
   * Sends an aes load to the master and resolves with the decrypted reply. `timeoutMs` bounds
   * each try (default: the minion's `return_retry_timer`) and marks a request the master answers
   * late (a runner's return): it travels on a connection of its own, holding up no job return.
   */
  request(load: Record<string, unknown>, opts?: { timeoutMs?: number }): Promise<unknown>;
  /** Replaces the job processes (idle ones now, busy ones when their job ends) so new jobs load fresh modules. */
  recycle(): void;
  /** True when jobs run inside the minion process, where loaded modules cannot be replaced. */
  readonly inProcess: boolean;
  /** From a job process: has the minion stop job `jid` alone (its abort signal fires). False elsewhere. */
  abortJob?(jid: string, sig: number): boolean;
  /** Has the minion fetch its pillar from the master again (saltutil.refresh_pillar); absent in salt-call. */
  refreshPillar?(): Promise<void>;
  /** Serves one of Salt's `manage_schedule` calls in the minion's scheduler; absent in salt-call. */
  manageSchedule?(call: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>>;
  /**
   * Has the master compile this minion's pillar afresh and answers it, without replacing the
   * minion's in-memory pillar (Salt's `pillar.items` calls `get_pillar(...).compile_pillar()`).
   * Absent in salt-call.
   */
  compilePillar?(ask: PillarAsk): Promise<Record<string, unknown>>;
}

/** What a fresh pillar compile asks the master for (Salt's `_pillar` load fields). */
export interface PillarAsk {
  pillarenv: string | null;
  saltenv: string | null;
  /** Merged over the compiled pillar (Salt's `pillar_override`, `pillar=` on the CLI). */
  pillarOverride: Readonly<Record<string, unknown>>;
}

/** What every execution-module function receives first, in place of Salt's injected globals. */
export interface ExecContext {
  /** The minion's resolved configuration (read-only). */
  readonly opts: Readonly<Record<string, unknown>>;
  readonly grains: Grains;
  /** The minion id. */
  readonly id: string;
  /** The job id, or `'req'` for a locally started job. */
  readonly jid: string;
  /** Calls another execution-module function: Salt's `__salt__['mod.fun'](...)`. */
  call(fun: string, args?: readonly unknown[], kwargs?: Readonly<Record<string, unknown>>): Promise<unknown>;
  readonly log: UnitLogger;
  /** Aborted when the job is killed or times out. */
  readonly signal: AbortSignal;
  /** Per-loader scratch space, Salt's `__context__`. */
  readonly cache: Map<string, unknown>;
  /** The functions this minion can run. */
  readonly functions: FunctionIndex;
  /** The minion's link to its master; absent where there is none (`salt-call --local`). */
  readonly master?: MasterLink;
}

/** Extra positionals and keywords a function accepts when it declares `varargs`/`varkw`. */
export interface ExtraArgs {
  args: unknown[];
  kwargs: Record<string, unknown>;
}

/**
 * One execution-module function. Positional arguments fill the keys of `args` in order,
 * keywords fill them by name; the zod schema then validates and types the bound record.
 * Arguments that fit no key are an invocation error unless `varargs`/`varkw` collect them.
 */
/**
 * Builds a function's argument schema from the zod it is handed. A module whose functions all
 * declare their arguments this way never imports zod itself, so a CLI that runs `test.ping`
 * does not pay zod's load time; the loader builds each schema once, when the function is first
 * looked up.
 */
export type ArgsBuilder<S extends z.ZodObject = z.ZodObject> = (zod: typeof z) => S;

export interface FunctionSpec<S extends z.ZodObject = z.ZodObject, R = unknown> {
  /** The arguments: a zod object schema, or an {@link ArgsBuilder} that makes one. */
  args?: S | ArgsBuilder<S>;
  /** Collect positionals beyond `args` into `extra.args` (Python's `*args`). */
  varargs?: boolean;
  /** Collect keywords that name no key of `args` into `extra.kwargs` (Python's `**kwargs`). */
  varkw?: boolean;
  /** First line: summary; the rest: details. Shown by `sys.doc`. */
  doc?: string;
  /** Outputter the CLI should use for this function's return. */
  outputter?: string;
  /** Salt's Python name when `__func_alias__` renames it (`list_` for `list`), as argument errors name it. */
  pyName?: string;
  /**
   * Pure, non-blocking and done in microseconds (no disk, network, child process or long loop):
   * the minion may run it in its main process instead of a job process, whose round trip costs
   * more than the function. Honoured for tsalt's built-in modules, and for an extension module
   * only when the minion's operator names it in `inline_modules`: by default code from
   * extension folders or packages runs isolated from the minion's main loop.
   */
  inline?: boolean;
  run(ctx: ExecContext, args: z.output<S>, extra: ExtraArgs): R | Promise<R>;
}

/** Identity helper that types a function spec. */
export function defineFunction<S extends z.ZodObject, R>(
  spec: FunctionSpec<S, R> & { args: S | ArgsBuilder<S> },
): FunctionSpec<S, R>;
export function defineFunction<R>(
  spec: Omit<FunctionSpec<z.ZodObject, R>, 'args'>,
): FunctionSpec<z.ZodObject, R>;
export function defineFunction(spec: FunctionSpec): FunctionSpec {
  return spec;
}

/** Context handed to `virtual()`. */
export interface VirtualContext {
  readonly opts: Readonly<Record<string, unknown>>;
  readonly grains: Grains;
}

/** An execution module: Salt's `salt/modules/<name>.py`. */
export interface ModuleDef {
  /** The name callers use: `test` in `test.ping`. */
  name: string;
  /** Module doc for `sys.doc`. */
  doc?: string;
  /** Other names the module answers to. */
  aliases?: readonly string[];
  /** Salt's `__virtual__`: decides once at load time whether (and under which name) the module loads. */
  virtual?(ctx: VirtualContext): VirtualResult | Promise<VirtualResult>;
  /** The functions, by name. `run` is a method, so specs with narrower schemas fit here. */
  functions: Readonly<Record<string, FunctionSpec>>;
}

/**
 * Types an execution module. The loader reads only the default export of a module file.
 * @example
 * export default defineModule({
 *   name: 'hello',
 *   functions: { world: defineFunction({ run: () => 'hello world' }) },
 * });
 */
export function defineModule<M extends ModuleDef>(def: M): M {
  return def;
}

/** What a custom grain module's `grains()` receives. */
export interface GrainsContext {
  /** The minion's resolved configuration (read-only). */
  readonly opts: Readonly<Record<string, unknown>>;
  /** The minion id. */
  readonly id: string;
  /** The grains computed so far: core grains, then the custom grain modules before this one. */
  readonly core: Grains;
}

/** A custom grain module: Salt's `_grains/<name>.py`. Its grains lie over the core grains. */
export interface GrainsModuleDef {
  name: string;
  doc?: string;
  /** Decides whether the module runs at all; a refusal skips it (a rename changes nothing). */
  virtual?(ctx: VirtualContext): VirtualResult | Promise<VirtualResult>;
  /** The grains this module adds. Runs once per process, bounded in time. */
  grains(ctx: GrainsContext): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/**
 * Types a custom grain module. The loader reads only the default export of a file in
 * `<extension_modules>/grains/`, a `grains_dirs` folder, or a package's `tsalt.grains` folder.
 * @example
 * export default defineGrains({ name: 'roles', grains: () => ({ role: 'api' }) });
 */
export function defineGrains<G extends GrainsModuleDef>(def: G): G {
  return def;
}

/** A function spec whose argument schema is built (what the loader hands out). */
export type ResolvedFunctionSpec<S extends z.ZodObject = z.ZodObject, R = unknown> = FunctionSpec<S, R> & {
  args?: S;
};

/** Builds `spec.args` in place when it is an {@link ArgsBuilder} (importing zod then), once. */
export async function resolveFunctionArgs<S extends z.ZodObject, R>(
  spec: FunctionSpec<S, R>,
): Promise<ResolvedFunctionSpec<S, R>> {
  if (typeof spec.args === 'function') {
    const { z: zod } = await import('zod');
    // another caller may have built it while zod loaded (jobs run side by side in one process)
    if (typeof spec.args === 'function') spec.args = spec.args(zod);
  }
  return spec as ResolvedFunctionSpec<S, R>;
}
