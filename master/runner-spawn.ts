/**
 * Starts one runner job in its own process (master/runner-process.ts) and watches it:
 * a process that dies before it says it is done, or that outlives the time its client
 * allowed (`salt-run -t`, then it is killed), ends the job with an error return fired on the
 * bus by `onFailure`. The request worker that started it never waits for it.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { SALT_ERR_RUNNER_CRASHED, SALT_ERR_RUNNER_TIMEOUT, type SaltError } from '../kernel/errors.js';
import type { UnitLogger } from '../kernel/loader/define.js';
import type { RunnerDoneMessage, RunnerJobMessage } from './runner-protocol.js';

export const RUNNER_PROCESS_ENTRY = new URL('./runner-process.js', import.meta.url);

/** How long a runner asked to stop (SIGTERM) gets before SIGKILL. */
const STOP_GRACE_MS = 2000;

export interface SpawnRunnerOptions {
  job: RunnerJobMessage;
  /** Seconds the runner may run; unset: no bound. */
  timeoutSeconds?: number;
  log: UnitLogger;
  /** Called once when the job ends without the runner's own `ret` (crash, exit, timeout). */
  onFailure(error: SaltError): void;
  /** Test seam: the entry script. */
  entry?: URL | string;
}

function why(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `killed by ${signal}`;
  return `exit code ${code}`;
}

/** Starts the runner process; resolves nothing, reports through `onFailure`. */
export function spawnRunner(opts: SpawnRunnerOptions): ChildProcess {
  const { job } = opts;
  const child = fork(opts.entry ?? RUNNER_PROCESS_ENTRY, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: [],
  });
  let done = false;
  let failed = false;
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const fail = (err: SaltError): void => {
    if (done || failed) return;
    failed = true;
    opts.onFailure(err);
  };
  child.on('message', (msg: RunnerDoneMessage) => {
    if (msg?.type === 'done') done = true;
  });
  child.on('error', (err) => {
    opts.log.error({ err, jid: job.jid }, `runner process for ${job.fun} failed`);
    fail(new SALT_ERR_RUNNER_CRASHED(job.fun, err.message));
  });
  child.on('exit', (code, signal) => {
    if (timer) clearTimeout(timer);
    if (killTimer) clearTimeout(killTimer);
    if (done) return;
    if (timedOut) fail(new SALT_ERR_RUNNER_TIMEOUT(job.fun, opts.timeoutSeconds ?? 0));
    else {
      opts.log.error({ jid: job.jid, code, signal }, `runner process for ${job.fun} died`);
      fail(new SALT_ERR_RUNNER_CRASHED(job.fun, why(code, signal)));
    }
  });
  if (opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0) {
    timer = setTimeout(() => {
      if (done) return;
      timedOut = true;
      opts.log.warn({ jid: job.jid }, `runner ${job.fun} ran past ${opts.timeoutSeconds} s: stopping it`);
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      killTimer.unref();
    }, opts.timeoutSeconds * 1000);
    timer.unref();
  }
  child.send(job);
  return child;
}
