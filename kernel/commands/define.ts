/**
 * Request commands: what the master's request server (port 4506) answers, by the load's `cmd`
 * (Salt's `ClearFuncs` and `AESFuncs` methods). The kernel registers the job path's own
 * (`_auth`, `publish`, `_return`, `_minion_event`, `ping`); everything else is a plugin's:
 * `api.commands.register(defineCommand({...}))`. The registry is frozen once the daemon is
 * ready, so a request costs one Map lookup to dispatch.
 */
import type { Logger } from 'pino';
import type { ClearAuthError as ClearAuthRefusal } from '../auth/clear-auth.js';
import type { ResolvedMasterConfig } from '../config/index.js';
import type { MasterJobCache } from '../jobs/master-job-cache.js';
import type { StartTaskOptions } from '../process/task.js';

/** How the request travels: `clear` (users' commands, sign-in) or `aes` (a signed-in minion's). */
export type CommandEnc = 'clear' | 'aes';

/**
 * Where the request server runs a command. `light`: on its router thread, which owns the
 * sockets and handles most minion traffic itself; only for cheap work that never blocks (no RSA,
 * no synchronous I/O of any size). `worker`: on one of the `worker_threads` worker threads.
 */
export type CommandLane = 'light' | 'worker';

/** Salt's refusal of a clear command whose caller could not be authenticated. */
export type { ClearAuthError as ClearAuthRefusal } from '../auth/clear-auth.js';

/** What a command's handler may use. One per request. */
export interface CommandContext {
  readonly config: ResolvedMasterConfig;
  readonly log: Logger;
  /** `aes` commands: the minion that sent the request, its key, session and token checked. */
  readonly id: string | undefined;
  /** The master job cache (`master_job_cache`): jids, job loads and returns. */
  readonly jobCache: MasterJobCache;
  /** Fires an event on the master bus, sent once the reply is on its way. */
  fire(tag: string, data: Record<string, unknown>): void;
  /**
   * `clear` commands: who sent the load, from the user key in it (`<cachedir>/.<user>_key`, as
   * `publish` checks it), or Salt's refusal to answer with.
   */
  clearUser(load: Readonly<Record<string, unknown>>): { user: string } | ClearAuthRefusal;
  /**
   * Starts the task `name` (`api.tasks`) in a process of its own with `payload` (a structured
   * clone) and returns at once; the command does not wait for it.
   */
  startTask(name: string, payload: unknown, options: StartTaskOptions): void;
}

/** One request command. */
export interface CommandDef<Load extends Record<string, unknown> = Record<string, unknown>> {
  /** The load's `cmd`: `_pillar`, `_mine_get`, `runner`, ... */
  readonly cmd: string;
  readonly enc: CommandEnc;
  /** Default `worker`. */
  readonly lane?: CommandLane;
  /**
   * `aes` only. `session` (default): the answer is encrypted with the minion's session key.
   * `private`: Salt's `send_private`, a one-time key encrypted to the minion's public key and
   * the answer signed by the master, as `_pillar` is answered; the load must carry a `nonce`.
   */
  readonly reply?: 'session' | 'private';
  /** The answer (any msgpack-able value). A throw is logged and answered with Salt's generic refusal. */
  handle(load: Load, ctx: CommandContext): unknown;
}

/**
 * Types a request command. A typing aid only.
 * @example
 * api.commands.register(defineCommand({
 *   cmd: '_acme_inventory', enc: 'aes', lane: 'light',
 *   handle: (load, ctx) => ({ seen: ctx.id }),
 * }));
 */
export function defineCommand<Load extends Record<string, unknown>>(def: CommandDef<Load>): CommandDef<Load> {
  return def;
}
