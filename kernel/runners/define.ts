/**
 * The typed shapes of runner and wheel modules (Salt's `salt/runners/*.py`, `salt/wheel/*.py`)
 * and their `define*` helpers. A runner file default-exports one `defineRunner` call; the
 * runner loader reads only the default export, as the execution-module loader does.
 */
import type { z } from 'zod';
import type { JobQuery, JobSummary, StoredLoad, StoredReturn } from '../jobs/returner.js';
import type { ExtraArgs, UnitLogger, VirtualContext, VirtualResult } from '../loader/define.js';

/** How a runner runs an execution function on minions (through the master, like `salt`). */
export interface MinionCallOptions {
  /** Target type: `glob` (default), `list`, `compound`, `grain`, ... */
  tgtType?: string;
  /** Seconds to wait for returns before the find_job check; default: the master's `timeout`. */
  timeout?: number;
  /** Seconds to wait for find_job replies; default: the master's `gather_job_timeout`. */
  gatherJobTimeout?: number;
  kwargs?: Readonly<Record<string, unknown>>;
  /** Returners the minions also send their returns to (Salt's `ret`), comma-separated. */
  ret?: string;
  /** Salt's `batch`: `N` or `N%` of the responding minions run the job at a time. */
  batch?: string;
  /** With `batch`: publish to no more minions after a failed return. */
  failhard?: boolean;
}

/** A minion's full answer to a job run from a runner. */
export interface MinionCallReturn {
  return: unknown;
  retcode: number;
  success: boolean;
}

/** Runs execution functions on minions from a runner (Salt's `salt.client.LocalClient` in runners). */
export interface MinionClient {
  /** `{minion: return}` for the minions that returned (Salt's `LocalClient.cmd`). */
  cmd(
    tgt: string | readonly string[],
    fun: string,
    arg?: readonly unknown[],
    opts?: MinionCallOptions,
  ): Promise<Record<string, unknown>>;
  /** Every targeted minion: returns with retcode, and the ids that did not return with why. */
  cmdFull(
    tgt: string | readonly string[],
    fun: string,
    arg?: readonly unknown[],
    opts?: MinionCallOptions,
  ): Promise<{
    jid: string;
    returns: Record<string, MinionCallReturn>;
    missing: Record<string, string>;
    /** The ids a list target named that the master does not know (also in `missing`; Salt's `missing`). */
    unknown?: string[];
  }>;
}

/** Read access to the master job cache (whatever `master_job_cache` is). */
export interface JobCacheView {
  /** Matching jobs, newest first: the store's own search, or its job list filtered. */
  listJobs(query: JobQuery): Promise<Array<JobSummary & { jid: string }>>;
  getLoad(jid: string): Promise<StoredLoad | undefined>;
  getJid(jid: string): Promise<Record<string, StoredReturn>>;
  /** For each minion, the last jid that ran `fun` on it. */
  getFun(fun: string): Promise<Record<string, string>>;
  /** The store's name (`local_cache`, ...). */
  readonly name: string;
}

/** What a wheel function receives first (Salt's wheel globals). */
export interface WheelContext {
  /** The master's resolved configuration (read-only). */
  readonly opts: Readonly<Record<string, unknown>>;
  readonly log: UnitLogger;
  readonly jid: string;
  /** Who asked (the CLI's user name). */
  readonly user: string;
  /** Fires an event on the master bus. */
  fireEvent(tag: string, data: Record<string, unknown>): void;
}

/** What a runner function receives first, in place of Salt's runner globals. */
export interface RunnerContext extends WheelContext {
  /**
   * Fires `salt/run/<jid>/progress` (Salt's `__jid_event__.fire_event(data, 'progress')`):
   * `salt-run` prints it while the runner goes on.
   */
  progress(data: Record<string, unknown>): void;
  /**
   * A note for the person running `salt-run`, printed on its stderr (so `--out json` stays
   * parseable): a search that matched nothing, a minion that was skipped.
   */
  warn(message: string): void;
  /** Runs execution functions on minions through the master. */
  readonly client: MinionClient;
  readonly jobs: JobCacheView;
  /** Calls another runner function (Salt's `__salt__['mod.fun']` in a runner). */
  call(fun: string, args?: readonly unknown[], kwargs?: Readonly<Record<string, unknown>>): Promise<unknown>;
  /** Calls a wheel function (`key.list_all`), as orchestration's `salt.wheel` does. */
  wheel(fun: string, args?: readonly unknown[], kwargs?: Readonly<Record<string, unknown>>): Promise<unknown>;
  /** The functions this master can run: `runner`, `wheel`, `execution` (minion modules). */
  readonly functions: RunnerFunctionIndex;
  /** Sets the exit code `salt-run` reports (Salt's `__context__['retcode']`); nonzero means failure. */
  setRetcode(code: number): void;
  /** Aborted when the runner is stopped (client timeout, master shutdown). */
  readonly signal: AbortSignal;
}

/** Names and docs of the loadable functions, for `doc.*` and `sys`-like listings. */
export interface RunnerFunctionIndex {
  /** `{mod.fun: doc}` of one kind; `match` is a module name or a `mod.fun` glob. */
  docs(kind: 'runner' | 'wheel' | 'execution', match?: string): Promise<Record<string, string>>;
}

/**
 * One runner or wheel function. Positional arguments fill the keys of `args` in order,
 * keywords fill them by name, as in {@link import('../loader/define.js').FunctionSpec}.
 */
export interface RunnerFunctionSpec<S extends z.ZodObject = z.ZodObject, R = unknown, C = RunnerContext> {
  args?: S;
  varargs?: boolean;
  varkw?: boolean;
  doc?: string;
  /** Outputter `salt-run` uses for this function's return (Salt's `__outputter__`). */
  outputter?: string;
  run(ctx: C, args: z.output<S>, extra: ExtraArgs): R | Promise<R>;
}

/** Identity helper that types a runner function. */
export function defineRunnerFunction<S extends z.ZodObject, R>(
  spec: RunnerFunctionSpec<S, R> & { args: S },
): RunnerFunctionSpec<S, R>;
export function defineRunnerFunction<R>(
  spec: Omit<RunnerFunctionSpec<z.ZodObject, R>, 'args'>,
): RunnerFunctionSpec<z.ZodObject, R>;
export function defineRunnerFunction(spec: RunnerFunctionSpec): RunnerFunctionSpec {
  return spec;
}

/** Identity helper that types a wheel function. */
export function defineWheelFunction<S extends z.ZodObject, R>(
  spec: RunnerFunctionSpec<S, R, WheelContext> & { args: S },
): RunnerFunctionSpec<S, R, WheelContext>;
export function defineWheelFunction<R>(
  spec: Omit<RunnerFunctionSpec<z.ZodObject, R, WheelContext>, 'args'>,
): RunnerFunctionSpec<z.ZodObject, R, WheelContext>;
export function defineWheelFunction(
  spec: RunnerFunctionSpec<z.ZodObject, unknown, WheelContext>,
): RunnerFunctionSpec<z.ZodObject, unknown, WheelContext> {
  return spec;
}

/** A runner module: Salt's `salt/runners/<name>.py`. */
export interface RunnerModuleDef<C = RunnerContext> {
  name: string;
  doc?: string;
  aliases?: readonly string[];
  virtual?(ctx: VirtualContext): VirtualResult | Promise<VirtualResult>;
  functions: Readonly<Record<string, RunnerFunctionSpec<z.ZodObject, unknown, C>>>;
}

/** A wheel module: Salt's `salt/wheel/<name>.py`. */
export type WheelModuleDef = RunnerModuleDef<WheelContext>;

/**
 * Types a runner module. The loader reads only the default export of a file in the built-in
 * runners, `<extension_modules>/runners`, a `runner_dirs` folder or a package's `tsalt.runners`.
 * @example
 * export default defineRunner({
 *   name: 'hello',
 *   functions: { world: defineRunnerFunction({ run: () => 'hello world' }) },
 * });
 */
export function defineRunner<M extends RunnerModuleDef>(def: M): M {
  return def;
}

/** Types a wheel module (built-ins in `plugins/wheel/`, `<extension_modules>/wheel`, `wheel_dirs`). */
export function defineWheel<M extends WheelModuleDef>(def: M): M {
  return def;
}
