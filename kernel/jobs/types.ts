/**
 * Shapes of the data a job carries through the platform, as Salt puts them on the wire.
 */

/** The clear `publish` request a client sends to the master (PROTOCOL.md §6). */
export interface PublishRequest {
  cmd: 'publish';
  tgt: string | string[];
  fun: string | string[];
  arg: unknown[];
  key?: string;
  tgt_type: string;
  ret: string;
  jid: string;
  kwargs?: Record<string, unknown>;
  user?: string;
  delimiter?: string;
  [extra: string]: unknown;
}

/** The load the publisher encrypts and sends to every minion. */
export interface PublishLoad {
  fun: string | string[];
  arg: unknown[];
  tgt: string | string[];
  jid: string;
  ret: string;
  tgt_type: string;
  user: string;
  delimiter?: string;
  metadata?: Record<string, unknown>;
  master_id?: string;
  [extra: string]: unknown;
}

/** A job as the master stored it. */
export interface StoredJob {
  jid: string;
  load: PublishRequest;
  minions: string[];
  missing: string[];
}

/** A job on a minion: the publish load that matched it, as its job runs it. */
export interface MinionJob {
  jid: string;
  fun: string | string[];
  arg: unknown[];
  tgt?: unknown;
  tgt_type?: string;
  ret?: string;
  user?: string;
  [extra: string]: unknown;
}

/** How a job ended on a minion: what its `_return` carries. */
export interface MinionJobOutcome {
  return: unknown;
  retcode: number | Record<string, number>;
  success: boolean | Record<string, boolean>;
  out?: string;
}

/** A runner's outcome, as its `salt/run/<jid>/ret` event carries it. */
export interface RunnerReturn {
  jid: string;
  /** `jobs.list_jobs`, without the `runner.` prefix. */
  fun: string;
  fun_args: unknown[];
  user: string;
  return: unknown;
  success: boolean;
  retcode: number;
}

/** A minion's `_return` load as the master verified it (PROTOCOL.md §7). */
export interface JobReturn {
  id: string;
  jid: string;
  fun: string | string[];
  fun_args: unknown[];
  return: unknown;
  retcode: number | Record<string, number>;
  success: boolean | Record<string, boolean>;
  out?: string;
  user?: string;
  [extra: string]: unknown;
}

/** An event on a bus: a tag and a map of data. */
export interface SaltEvent {
  tag: string;
  data: Record<string, unknown>;
}
