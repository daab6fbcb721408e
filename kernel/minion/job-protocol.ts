/**
 * Messages between the minion's main process and its job processes.
 */
import type { JobOutcome } from './execute-job.js';

/** The publish data a job runs from (what Salt writes to `proc/<jid>`). */
export interface JobData {
  jid: string;
  fun: string | string[];
  arg: unknown[];
  tgt?: unknown;
  tgt_type?: string;
  ret?: string;
  user?: string;
  [extra: string]: unknown;
}

export interface RunJob {
  type: 'run';
  job: JobData;
}

export interface JobResult {
  type: 'result';
  jid: string;
  result: JobOutcome;
}
