/**
 * Messages between the minion's main process and its job processes.
 */
import type { MinionJobOutcome as JobOutcome, MinionJob } from '../kernel/jobs/types.js';
import { packIpc, unpackIpc } from '../kernel/serial/index.js';

/** The publish data a job runs from (what Salt writes to `proc/<jid>`). */
/** A job as the executor runs it (the kernel's {@link MinionJob}). */
export type JobData = MinionJob;

export interface RunJob {
  type: 'run';
  /** The executor's run number: a job process runs several jobs at once. */
  seq: number;
  job: JobData;
  /**
   * The job's `arg` as msgpack: the IPC channel's structured clone would turn an integral
   * float (a `SaltFloat`, Python's `1.0`) into a plain object, so it travels packed.
   */
  arg?: Uint8Array;
  /**
   * The minion's pillar (msgpack), sent when this process has not had this version yet: job
   * processes keep the last one they were given (Salt's `__pillar__`).
   */
  pillar?: Uint8Array;
}

/**
 * The stopping minion leaves a busy job process its jobs: it takes no new one, sends the
 * returns of those it runs through its own channel (own-channel.ts), then exits. It answers
 * {@link JobsDetached}; results it sent before that are the main process's to return.
 */
export interface DetachJobs {
  type: 'detach';
}

export interface JobsDetached {
  type: 'detached';
}

/** A job process asks the minion's main process for a fresh compile of its pillar (pillar.items); `ask` is a packed PillarAsk. */
export interface CompilePillarRequest {
  type: 'compile-pillar';
  rid: number;
  ask: string;
}

/** A job process asks the minion's main process to fetch its pillar again (saltutil.refresh_pillar). */
export interface RefreshPillarRequest {
  type: 'refresh-pillar';
  rid: number;
}

/**
 * A job process asks the minion's main process to serve one of Salt's `manage_schedule` calls
 * (the schedule module); `call` is msgpack (IPC), base64. Answered with a {@link MasterReply}.
 */
export interface ScheduleRequest {
  type: 'schedule-request';
  rid: number;
  call: string;
}

export interface JobResult {
  type: 'result';
  /** The {@link RunJob.seq} this answers. */
  seq?: number;
  jid: string;
  result: PackedOutcome;
}

/**
 * A job's outcome with its return packed as msgpack: V8's structured clone keeps no classes,
 * so a Salt-typed value (a float such as test.fib's seconds, a datetime, a constant) would
 * reach the main process as a plain `{value}` object and be returned so.
 */
export interface PackedOutcome extends Omit<JobOutcome, 'return'> {
  return: Uint8Array;
}

export function packOutcome(outcome: JobOutcome): PackedOutcome {
  return { ...outcome, return: packIpc(outcome.return) };
}

export function unpackOutcome(packed: PackedOutcome): JobOutcome {
  return { ...packed, return: unpackIpc(packed.return, { exactFloats: true }) };
}

/**
 * A job process asks the minion's main process to send an aes load to the master (job
 * processes have no master channel). `load` is the msgpack (IPC) encoding, base64, so bytes
 * survive Node's JSON IPC.
 */
export interface MasterRequest {
  type: 'master-request';
  rid: number;
  load: string;
  /** Each try's timeout, when the function asked for one (a slow master answer such as a runner's). */
  timeoutMs?: number;
}

/** The main process's answer to a {@link MasterRequest}: the decrypted reply, encoded alike, or an error text. */
export interface MasterReply {
  type: 'master-reply';
  rid: number;
  reply?: string;
  error?: string;
}

/** A job process asks for every job process to be replaced (after a module sync or refresh). */
export interface RecycleRequest {
  type: 'recycle';
}

/**
 * Stop one job (`saltutil.kill_job`/`term_job` of a job whose process also runs other jobs):
 * a job process sends it to the minion's main process, which forwards it to the process that
 * runs `jid`; there the job's abort signal fires and it ends with an error return.
 */
export interface AbortJob {
  type: 'abort-job';
  jid: string;
  sig: number;
}
