/**
 * The state system's data, as Salt names it (`salt/state.py`): high data (SLS files merged:
 * `{id: {module: [args..., fun], __sls__, __env__}}`), low chunks (one state function call
 * each, ordered), and the run's result keyed by Salt's tag `mod_|-id_|-name_|-fun`. The
 * compiler (compile/) turns SLS files into high data and high data into low chunks; the runtime
 * (runtime/) runs low chunks; `modules/state.ts` ties them to the minion.
 */
import type { ExecContext } from '../../kernel/index.js';
import type { StateFunctions, StateReturn } from './define.js';

/** One id's body in high data: `{ file: ['managed', {source: ...}, ...], __sls__, __env__ }`. */
export type HighBody = Record<string, unknown> & { __sls__?: string; __env__?: string };

/** High data: state id → its body. Key order is definition order. */
export type HighData = Record<string, HighBody>;

/** One low chunk (Salt's `low`): the state call and every argument, requisites included. */
export interface LowChunk {
  /** The state module (`file`). */
  state: string;
  /** The state function (`managed`). */
  fun: string;
  /** The `name` argument (the id unless `name:`/`names:` gave another). */
  name: string;
  /** The id the state was declared under. */
  __id__: string;
  /** The SLS it came from (`nginx.config`); absent for `state.single`/`state.low`. */
  __sls__?: string;
  /** Its saltenv. */
  __env__?: string;
  /** Salt's `order` after compilation (a number; `first`/`last` resolved). */
  order?: number | string;
  /** Every other argument: state arguments, requisites, global arguments. */
  [arg: string]: unknown;
}

/** One state's entry in a run's result (what `state.apply` returns per tag). */
export interface StateResult extends StateReturn {
  __id__: string;
  __run_num__: number;
  __sls__?: string;
  /** `HH:MM:SS.ffffff` local time the state started. */
  start_time?: string;
  /** Milliseconds, a float. */
  duration?: number;
  /** Salt's `__state_ran__`/`skip_watch` and others pass through. */
}

/** A run's result: tag (`file_|-conf_|-/etc/x_|-managed`) → entry, in run order. */
export type StateRunResult = Record<string, StateResult>;

/**
 * Where SLS and top files come from (the minion's file client: the master's file server, or
 * the minion's own `file_roots` with `file_client: local`).
 */
export interface SlsSource {
  /** Caches `salt://path` of `saltenv` and resolves with the local path, or false when the file server has none. */
  cacheFile(url: string, saltenv: string): Promise<string | false>;
  /** The SLS names of a saltenv (`nginx`, `nginx.config`), Salt's `list_states`. */
  listStates(saltenv: string): Promise<string[]>;
  /** The saltenvs the file server knows. */
  envs(): Promise<string[]>;
}

/** What rendering one SLS file needs to know about it. */
export interface SlsFile {
  /** The local path of the cached file, for render errors. */
  path: string;
  /** Its path relative to the file root (`nginx/init.sls`): `tplfile`, `tpldir`. */
  rel: string;
  saltenv: string;
  /** The SLS name (`nginx`); empty for a top file. */
  sls: string;
}

/**
 * Renders one SLS or top file to data with its `#!` pipeline or the `renderer` default, with
 * the minion's grains, pillar, opts and `salt[...]`, `salt://` imports through the file client.
 * Throws the renderers' errors (their message names the file and line).
 */
export type SlsRenderer = (file: SlsFile) => Promise<unknown>;

/** What the runtime needs to run low chunks on a minion. */
export interface RunContext {
  /** The job's execution context (`ctx.call` for `unless`/`onlyif`, `ctx.signal`, `ctx.log`). */
  exec: ExecContext;
  /** The state functions (`exec.states`). */
  states: StateFunctions;
  test: boolean;
  /** The global `failhard`. */
  failhard: boolean;
  /** The pillar the run sees (a `pillar=` override merged in). */
  pillar: Readonly<Record<string, unknown>>;
  /** Fires `salt/job/<jid>/prog/<id>/<n>` events when `state_events` is on; absent otherwise. */
  progress?(tag: string, result: StateResult): void;
}
