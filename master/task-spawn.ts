/**
 * Starts one task (`api.tasks`) in its own process (master/children/task-process.ts) and
 * watches it: a process that dies before it says it is done, or that outlives the time its
 * command allowed (then it is stopped), is reported through `onFailure`. The request worker
 * that started it never waits for it.
 */
import { type ChildProcess, fork } from 'node:child_process';
import type { UnitLogger } from '../kernel/loader/define.js';
import type { StartTaskOptions } from '../kernel/process/task.js';
import type { TaskDoneMessage, TaskStartMessage } from './task-protocol.js';

export const TASK_PROCESS_ENTRY = new URL('./children/task-process.js', import.meta.url);

/** How long a task asked to stop (SIGTERM) gets before SIGKILL. */
const STOP_GRACE_MS = 2000;

export interface SpawnTaskOptions extends StartTaskOptions {
  message: TaskStartMessage;
  log: UnitLogger;
  /** Test seam: the entry script. */
  entry?: URL | string;
}

function why(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `killed by ${signal}`;
  return `exit code ${code}`;
}

/** Starts the task's process; resolves nothing, reports through `onFailure`. */
export function spawnTask(opts: SpawnTaskOptions): ChildProcess {
  const { message } = opts;
  const child = fork(opts.entry ?? TASK_PROCESS_ENTRY, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: [],
  });
  let done = false;
  let failed = false;
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const fail = (failure: Parameters<StartTaskOptions['onFailure']>[0]): void => {
    if (done || failed) return;
    failed = true;
    opts.onFailure(failure);
  };
  child.on('message', (msg: TaskDoneMessage) => {
    if (msg?.type === 'done') done = true;
  });
  child.on('error', (err) => {
    opts.log.error({ err }, `the process of task ${message.title} failed`);
    fail({ reason: 'crashed', detail: err.message });
  });
  child.on('exit', (code, signal) => {
    if (timer) clearTimeout(timer);
    if (killTimer) clearTimeout(killTimer);
    if (done) return;
    if (timedOut) fail({ reason: 'timeout', seconds: opts.timeoutSeconds ?? 0 });
    else {
      opts.log.error({ code, signal }, `the process of task ${message.title} died`);
      fail({ reason: 'crashed', detail: why(code, signal) });
    }
  });
  if (opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0) {
    timer = setTimeout(() => {
      if (done) return;
      timedOut = true;
      opts.log.warn(`task ${message.title} ran past ${opts.timeoutSeconds} s: stopping it`);
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      killTimer.unref();
    }, opts.timeoutSeconds * 1000);
    timer.unref();
  }
  child.send(message);
  return child;
}
