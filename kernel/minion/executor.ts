/**
 * Runs jobs isolated from the minion's main loop. With `multiprocessing` (the default) each
 * job runs in a job process from a small pool (one job per process at a time, one warm
 * process kept idle, extra idle ones retired); a job whose process dies yields an error
 * return. Without it, jobs run in this process.
 *
 * Job processes may ask for a master request (relayed through `masterRequest`) and for a
 * {@link JobExecutor.recycle}: Node cannot unload modules, so after a module sync the pool is
 * replaced and the next job imports the new files.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { SALT_ERR_EXEC_CRASHED } from '../errors.js';
import { executeJob, type JobOutcome } from './execute-job.js';
import type { JobData, JobResult, MasterRequest, RunJob } from './job-protocol.js';
import { answerMasterRequest } from './master-link.js';
import type { RunEnv } from './run-function.js';

const JOB_PROCESS = fileURLToPath(new URL('./job-process.js', import.meta.url));

interface PoolProc {
  child: ChildProcess;
  ready: Promise<void>;
  job?: { jid: string; fun: string; resolve(r: JobOutcome): void };
  idleTimer?: NodeJS.Timeout;
  /** Replaced: takes no new job, exits when its current one ends. */
  retired?: boolean;
}

export interface ExecutorOptions {
  multiprocessing: boolean;
  env: Record<string, string>;
  cachedir: string;
  log: Logger;
  /** In-process execution environment (used when multiprocessing is off). */
  runEnv?: () => RunEnv;
  /** Most job processes at once (-1: no limit). */
  maxProcesses: number;
  idleRetireMs?: number;
  /** Sends a job process's aes load to the master (the minion's channel). */
  masterRequest?: (load: Record<string, unknown>) => Promise<unknown>;
  /** Called after every recycle (a module sync): the minion recomputes what it derives from modules. */
  onRecycle?: () => void;
}

export class JobExecutor {
  readonly #opts: ExecutorOptions;
  readonly #procs = new Set<PoolProc>();
  readonly #waiting: (() => void)[] = [];
  #runEnv: RunEnv | undefined;
  #closed = false;

  constructor(opts: ExecutorOptions) {
    this.#opts = opts;
    if (opts.multiprocessing) this.#spawn();
  }

  /** Job processes alive now. */
  get processes(): number {
    return this.#procs.size;
  }

  #spawn(): PoolProc {
    const child = fork(JOB_PROCESS, [], {
      env: { ...process.env, ...this.#opts.env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let markReady: () => void = () => undefined;
    const proc: PoolProc = { child, ready: new Promise((r) => (markReady = r)) };
    this.#procs.add(proc);
    child.on('message', (msg: { type?: string; result?: JobResult['result'] }) => {
      if (msg.type === 'ready') markReady();
      else if (msg.type === 'result' && proc.job && msg.result) {
        const done = proc.job;
        proc.job = undefined;
        done.resolve(msg.result);
        if (proc.retired) proc.child.kill('SIGTERM');
        else this.#release(proc);
      } else if (msg.type === 'master-request') this.#relay(proc, msg as MasterRequest);
      else if (msg.type === 'recycle') this.recycle();
    });
    child.on('exit', (code, signal) => {
      this.#procs.delete(proc);
      markReady();
      if (proc.idleTimer) clearTimeout(proc.idleTimer);
      if (proc.job) {
        const why = signal ? `killed by ${signal}` : `exit code ${code}`;
        const err = new SALT_ERR_EXEC_CRASHED(proc.job.fun, why);
        this.#opts.log.error({ jid: proc.job.jid, fun: proc.job.fun, why }, 'job process died');
        proc.job.resolve({ return: `ERROR: ${err.message}`, retcode: 1, success: false, out: 'nested' });
        proc.job = undefined;
      }
      if (!this.#closed && [...this.#procs].every((p) => p.retired)) this.#spawn();
      this.#wake();
    });
    child.on('error', (err) => this.#opts.log.error({ err }, 'job process error'));
    return proc;
  }

  #relay(proc: PoolProc, msg: MasterRequest): void {
    const send = this.#opts.masterRequest;
    const answer = send
      ? answerMasterRequest(msg, send)
      : Promise.resolve({ type: 'master-reply' as const, rid: msg.rid, error: 'no master channel' });
    void answer.then((reply) => {
      if (proc.child.connected) proc.child.send(reply);
    });
  }

  /**
   * Replaces every job process: idle ones exit now, busy ones when their job ends, and a fresh
   * one is started, so the next job loads modules anew. In-process execution can only rescan
   * (new files load; changed ones keep their first import until the minion restarts).
   */
  recycle(): void {
    this.#opts.onRecycle?.();
    if (!this.#opts.multiprocessing) {
      this.#runEnv?.loader.reload();
      return;
    }
    for (const p of this.#procs) {
      p.retired = true;
      if (!p.job) p.child.kill('SIGTERM');
    }
    if (!this.#closed) this.#spawn();
    this.#opts.log.info('job processes recycled: the next jobs load modules anew');
  }

  #release(proc: PoolProc): void {
    const idle = [...this.#procs].filter((p) => !p.job);
    if (idle.length > 1) {
      proc.idleTimer = setTimeout(() => {
        if (!proc.job && [...this.#procs].filter((p) => !p.job).length > 1) proc.child.kill('SIGTERM');
      }, this.#opts.idleRetireMs ?? 30_000);
      proc.idleTimer.unref();
    }
    this.#wake();
  }

  #wake(): void {
    const next = this.#waiting.shift();
    next?.();
  }

  async #acquire(): Promise<PoolProc> {
    for (;;) {
      const idle = [...this.#procs].find((p) => !p.job && !p.retired && p.child.connected);
      if (idle) {
        if (idle.idleTimer) clearTimeout(idle.idleTimer);
        return idle;
      }
      const max = this.#opts.maxProcesses;
      const live = [...this.#procs].filter((p) => !p.retired).length;
      if (max < 0 || live < max) return this.#spawn();
      await new Promise<void>((r) => this.#waiting.push(r));
    }
  }

  /** Runs a job and resolves with its outcome; never rejects. */
  async run(job: JobData): Promise<JobOutcome> {
    if (!this.#opts.multiprocessing) {
      this.#runEnv ??= this.#opts.runEnv?.();
      if (!this.#runEnv) throw new Error('in-process execution needs a run environment');
      return executeJob(this.#runEnv, this.#opts.cachedir, job);
    }
    const proc = await this.#acquire();
    return new Promise<JobOutcome>((resolve) => {
      proc.job = { jid: job.jid, fun: String(job.fun), resolve };
      void proc.ready.then(() => {
        const msg: RunJob = { type: 'run', job };
        if (!proc.child.connected) return;
        proc.child.send(msg);
      });
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const exits = [...this.#procs].map(
      (p) =>
        new Promise<void>((r) => {
          if (p.child.exitCode !== null || p.child.signalCode !== null) return r();
          p.child.once('exit', () => r());
          p.child.kill('SIGTERM');
          setTimeout(() => p.child.kill('SIGKILL'), 2000).unref();
        }),
    );
    await Promise.all(exits);
  }
}
