/**
 * Runs jobs isolated from the minion's main loop. With `multiprocessing` (the default) jobs run
 * in a bounded pool of job processes: a job takes an idle process, or a new one while the pool
 * is below `job_processes_max`; past that it shares the least busy process (job processes run
 * several jobs at once: modules are asynchronous). The first job that needs a process starts
 * one; a process idle for `idleRetireMs` exits, so an idle minion is its main process alone
 * (issue 25). A job process that dies yields an error return for each job it held.
 * `process_count_max` bounds the jobs running at once, as in Salt: the next job waits for one
 * to end. Without `multiprocessing`, jobs run in this process.
 *
 * Why a pool and not a process per job: Salt forks (copy-on-write, a few MiB a job); a Node job
 * process costs ~60 MiB and ~100 ms to start, so a flood of queued jobs would otherwise start
 * one process each (a 2,000-job flood reached 1,300 processes).
 *
 * Job processes may ask for a master request (relayed through `masterRequest`) and for a
 * {@link JobExecutor.recycle}: Node cannot unload modules, so after a module sync the pool is
 * replaced and the next job imports the new files.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { SALT_ERR_EXEC_CRASHED } from '../kernel/errors.js';
import type { PillarAsk } from '../kernel/loader/define.js';
import { packIpc } from '../kernel/serial/index.js';
import { BUILTIN_DIRS } from '../plugins/builtin-dirs.js';
import { executeJob, type JobOutcome } from './execute-job.js';
import { createInlineRunner, type InlineRunner } from './inline-job.js';
import { jobProcessEntry } from './job-process-entry.js';
import {
  type AbortJob,
  type CompilePillarRequest,
  type DetachJobs,
  type JobData,
  type JobResult,
  type MasterRequest,
  type RefreshPillarRequest,
  type RunJob,
  type ScheduleRequest,
  unpackOutcome,
} from './job-protocol.js';
import { answerMasterRequest, decodeLoad, encodeLoad } from './master-link.js';
import type { RunEnv } from './run-function.js';

interface RunningJob {
  jid: string;
  fun: string;
  resolve(r: JobOutcome): void;
}

interface PoolProc {
  child: ChildProcess;
  ready: Promise<void>;
  /** Jobs running in this process, by run number. */
  jobs: Map<number, RunningJob>;
  idleTimer?: NodeJS.Timeout;
  /** Replaced: takes no new job, exits when its current ones end. */
  retired?: boolean;
  /** The pillar version this process was last sent. */
  pillarSent?: Uint8Array;
  /** Left its jobs by {@link JobExecutor.detach}: it returns them itself. */
  detached?: boolean;
}

export interface ExecutorOptions {
  multiprocessing: boolean;
  /** Added to a job process's environment, taken when it starts. */
  env: () => Record<string, string>;
  cachedir: string;
  log: Logger;
  /** In-process execution environment (used when multiprocessing is off). */
  runEnv?: () => RunEnv;
  /** Most jobs running at once (Salt's `process_count_max`; -1: no limit). */
  maxJobs: number;
  /** Most job processes at once (at least 1). */
  maxProcesses: number;
  /** How long an idle job process lives before it exits (`job_process_idle_timeout`); 0: forever. */
  idleRetireMs?: number;
  /** Sends a job process's aes load to the master (the minion's channel). */
  masterRequest?: (
    load: Record<string, unknown>,
    opts: { timeoutMs?: number; slow?: boolean },
  ) => Promise<unknown>;
  /** Called after every recycle (a module sync): the minion recomputes what it derives from modules. */
  onRecycle?: () => void;
  /**
   * With `multiprocessing`: whether `job` may run in this process when its function is an inline
   * one (inline-job.ts); the minion says no for jobs with returners.
   */
  inline?: (job: JobData) => boolean;
  /** Module names (`inline_modules`) whose inline functions run here even from extension folders. */
  inlineModules?: readonly string[];
  /** The minion's current pillar, msgpack-packed once per version (sent to job processes with their next job). */
  pillar?: () => Uint8Array | undefined;
  /** Fetches the pillar again (saltutil.refresh_pillar from a job process). */
  refreshPillar?: () => Promise<void>;
  /** Serves a schedule module's `manage_schedule` call from a job process. */
  manageSchedule?: (call: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>>;
  /** A fresh compile of the pillar, not kept (pillar.items from a job process). */
  compilePillar?: (ask: PillarAsk) => Promise<unknown>;
}

/** `job_processes_max` resolved: 0 means one per core, at least 2. */
export function jobProcessesMax(configured: number): number {
  return configured > 0 ? configured : Math.max(2, availableParallelism());
}

export class JobExecutor {
  readonly #opts: ExecutorOptions;
  readonly #procs = new Set<PoolProc>();
  /** Jobs waiting for a `process_count_max` slot. */
  readonly #waiting: (() => void)[] = [];
  #running = 0;
  #seq = 0;
  #runEnv: RunEnv | undefined;
  readonly #inline: InlineRunner;
  /** Outcomes of jobs run inline: pure functions, which touch no disk (the grains file included). */
  readonly #ranInline = new WeakSet<JobOutcome>();
  #closed = false;

  constructor(opts: ExecutorOptions) {
    this.#opts = opts;
    this.#inline = createInlineRunner({
      builtinDirs: [BUILTIN_DIRS.modules],
      trusted: opts.inlineModules ?? [],
    });
  }

  /** Job processes alive now. */
  get processes(): number {
    return this.#procs.size;
  }

  /** Jobs running now. */
  get running(): number {
    return this.#running;
  }

  #spawn(): PoolProc {
    const child = fork(jobProcessEntry(), [], {
      env: { ...process.env, ...this.#opts.env() },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    let markReady: () => void = () => undefined;
    const proc: PoolProc = { child, ready: new Promise((r) => (markReady = r)), jobs: new Map() };
    this.#procs.add(proc);
    child.on('message', (msg: { type?: string }) => {
      if (msg.type === 'ready') markReady();
      else if (msg.type === 'detached') proc.detached = true;
      else if (msg.type === 'result') this.#finish(proc, msg as JobResult);
      else if (msg.type === 'master-request') this.#relay(proc, msg as MasterRequest);
      else if (msg.type === 'recycle') this.recycle();
      else if (msg.type === 'abort-job') this.#abort(msg as AbortJob);
      else if (msg.type === 'refresh-pillar') this.#refreshPillar(proc, msg as RefreshPillarRequest);
      else if (msg.type === 'schedule-request') this.#manageSchedule(proc, msg as ScheduleRequest);
      else if (msg.type === 'compile-pillar') this.#compilePillar(proc, msg as CompilePillarRequest);
    });
    child.on('exit', (code, signal) => {
      this.#procs.delete(proc);
      markReady();
      if (proc.idleTimer) clearTimeout(proc.idleTimer);
      const why = signal ? `killed by ${signal}` : `exit code ${code}`;
      // a detached process returned its jobs itself
      for (const job of proc.detached ? [] : proc.jobs.values()) {
        const err = new SALT_ERR_EXEC_CRASHED(job.fun, why);
        this.#opts.log.error({ jid: job.jid, fun: job.fun, why }, 'job process died');
        job.resolve({ return: `ERROR: ${err.message}`, retcode: 1, success: false, out: 'nested' });
      }
      proc.jobs.clear();
    });
    child.on('error', (err) => this.#opts.log.error({ err }, 'job process error'));
    return proc;
  }

  #finish(proc: PoolProc, msg: JobResult): void {
    const job = msg.seq === undefined ? undefined : proc.jobs.get(msg.seq);
    if (!job || msg.seq === undefined || !msg.result) return;
    proc.jobs.delete(msg.seq);
    job.resolve(unpackOutcome(msg.result));
    if (proc.jobs.size > 0) return;
    if (proc.retired) this.#stop(proc);
    else this.#retireWhenIdle(proc);
  }

  /** Forwards an {@link AbortJob} to the process that runs its job. */
  #abort(msg: AbortJob): void {
    if (typeof msg.jid !== 'string') return;
    for (const p of this.#procs) {
      for (const job of p.jobs.values()) {
        if (job.jid === msg.jid && p.child.connected) {
          p.child.send({ type: 'abort-job', jid: msg.jid, sig: msg.sig } satisfies AbortJob);
          return;
        }
      }
    }
  }

  /** Answers a job process's {@link RefreshPillarRequest} once the pillar is fetched (or failed). */
  #refreshPillar(proc: PoolProc, msg: RefreshPillarRequest): void {
    const refresh = this.#opts.refreshPillar;
    const done = refresh ? refresh() : Promise.reject(new Error('no master channel'));
    void done
      .then(
        () => ({ type: 'master-reply' as const, rid: msg.rid, reply: encodeLoad(true) }),
        (err: Error) => ({ type: 'master-reply' as const, rid: msg.rid, error: err.message }),
      )
      .then((reply) => {
        if (proc.child.connected) proc.child.send(reply);
      });
  }

  /** Answers a job process's {@link ScheduleRequest} with the scheduler's answer (or an error). */
  #manageSchedule(proc: PoolProc, msg: ScheduleRequest): void {
    const manage = this.#opts.manageSchedule;
    this.#answer(
      proc,
      msg.rid,
      (async () => {
        if (!manage) throw new Error('this minion runs no scheduler');
        // whole floats stay floats (`seconds: 1.0`, a beacon's `interval: 1.0` list and diff as
        // Salt's); the scheduler's checks read them through `numeric`
        const call = decodeLoad(msg.call, true);
        if (typeof call !== 'object' || call === null) throw new Error('the schedule call is not a map');
        return manage(call as Record<string, unknown>);
      })(),
    );
  }

  /** Answers a job process's {@link CompilePillarRequest} with the freshly compiled pillar. */
  #compilePillar(proc: PoolProc, msg: CompilePillarRequest): void {
    const compile = this.#opts.compilePillar;
    this.#answer(
      proc,
      msg.rid,
      compile
        ? Promise.resolve().then(() => compile(decodeLoad(msg.ask) as PillarAsk))
        : Promise.reject(new Error('no master channel')),
    );
  }

  /** Sends a job process the answer to its request `rid`, or the error. */
  #answer(proc: PoolProc, rid: number, done: Promise<unknown>): void {
    void done
      .then(
        (answer) => ({ type: 'master-reply' as const, rid, reply: encodeLoad(answer) }),
        (err: Error) => ({ type: 'master-reply' as const, rid, error: err.message }),
      )
      .then((reply) => {
        if (proc.child.connected) proc.child.send(reply);
      });
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

  /** Whether `outcome` came from a function run inline (`inline`: pure, no disk), as {@link run} gave it. */
  ranInline(outcome: JobOutcome): boolean {
    return this.#ranInline.has(outcome);
  }

  /**
   * Replaces every job process: idle ones exit now, busy ones when their jobs end, and a fresh
   * one is started, so the next job loads modules anew. In-process execution can only rescan
   * (new files load; changed ones keep their first import until the minion restarts).
   */
  recycle(): void {
    this.#opts.onRecycle?.();
    // new files may shadow a built-in module: the inline lookup (or in-process jobs) rescans
    this.#runEnv?.loader.reload();
    void this.#inline.modulesSynced();
    if (this.retireProcesses())
      this.#opts.log.info('job processes recycled: the next jobs load modules anew');
  }

  /**
   * Retires every job process (idle ones exit now, busy ones when their jobs end), so the next
   * job starts a fresh one: with this process's environment, as Salt's forked jobs inherit the
   * minion's. False without multiprocessing (jobs run here and see it already).
   */
  retireProcesses(): boolean {
    if (!this.#opts.multiprocessing) return false;
    for (const p of this.#procs) {
      p.retired = true;
      if (p.jobs.size === 0) this.#stop(p);
    }
    return true;
  }

  /**
   * Ends an idle process: marked retired first, so no job is handed to it between the signal
   * and its exit. It exits once the returners of its last jobs are done (job-process.ts).
   */
  #stop(proc: PoolProc): void {
    proc.retired = true;
    if (proc.child.connected) proc.child.send({ type: 'exit' });
    else proc.child.kill('SIGTERM');
  }

  /** An idle process exits after `idleRetireMs` unless a job takes it first. */
  #retireWhenIdle(proc: PoolProc): void {
    const ms = this.#opts.idleRetireMs ?? 30_000;
    if (ms <= 0) return;
    if (proc.idleTimer) clearTimeout(proc.idleTimer);
    proc.idleTimer = setTimeout(() => {
      proc.idleTimer = undefined;
      if (proc.jobs.size === 0 && !proc.retired) this.#stop(proc);
    }, ms);
    proc.idleTimer.unref();
  }

  /** Waits for a `process_count_max` slot, then takes it. */
  async #slot(job: JobData): Promise<void> {
    // Salt limits only when process_count_max > 0: 0 and -1 both mean no limit
    const max = this.#opts.maxJobs;
    if (max > 0 && this.#running >= max) {
      this.#opts.log.warn(
        { jid: job.jid, running: this.#running, process_count_max: max },
        `Maximum number of processes reached while executing jid ${job.jid}, waiting...`,
      );
      while (this.#running >= max) await new Promise<void>((r) => this.#waiting.push(r));
    }
    this.#running++;
  }

  #freeSlot(): void {
    this.#running--;
    this.#waiting.shift()?.();
  }

  /** An idle process, a new one below the cap, or else the least busy live one. */
  #pick(): PoolProc {
    const live = [...this.#procs].filter((p) => !p.retired && p.child.connected);
    const idle = live.find((p) => p.jobs.size === 0);
    if (idle) {
      if (idle.idleTimer) clearTimeout(idle.idleTimer);
      idle.idleTimer = undefined;
      return idle;
    }
    if (live.length < Math.max(1, this.#opts.maxProcesses)) return this.#spawn();
    let best = live[0] as PoolProc;
    for (const p of live) if (p.jobs.size < best.jobs.size) best = p;
    return best;
  }

  /** Runs a job and resolves with its outcome; never rejects. */
  async run(job: JobData): Promise<JobOutcome> {
    if (!this.#opts.multiprocessing) {
      this.#runEnv ??= this.#opts.runEnv?.();
      if (!this.#runEnv) throw new Error('in-process execution needs a run environment');
      return executeJob(this.#runEnv, this.#opts.cachedir, job);
    }
    if (this.#opts.inline?.(job)) {
      const outcome = await this.#runInline(job);
      if (outcome) {
        this.#ranInline.add(outcome);
        return outcome;
      }
    }
    if (this.#closed) {
      // no new job process once close() began: it would outlive the minion
      return { return: 'ERROR: the minion is stopping', retcode: 1, success: false, out: 'nested' };
    }
    await this.#slot(job);
    try {
      const proc = this.#pick();
      const seq = ++this.#seq;
      return await new Promise<JobOutcome>((resolve) => {
        proc.jobs.set(seq, { jid: job.jid, fun: String(job.fun), resolve });
        void proc.ready.then(() => {
          const msg: RunJob = { type: 'run', seq, job, arg: packIpc(job.arg ?? []) };
          const pillar = this.#opts.pillar?.();
          if (pillar && proc.pillarSent !== pillar) {
            msg.pillar = pillar;
            proc.pillarSent = pillar;
          }
          if (proc.child.connected) proc.child.send(msg);
        });
      });
    } finally {
      this.#freeSlot();
    }
  }

  /** The job's outcome when it ran here (inline-job.ts), else undefined: a job process runs it. */
  async #runInline(job: JobData): Promise<JobOutcome | undefined> {
    this.#runEnv ??= this.#opts.runEnv?.();
    if (!this.#runEnv) return undefined;
    try {
      return await this.#inline.run(this.#runEnv, job);
    } catch (err) {
      // the lookup failed (a broken module file): the job process reports it the usual way
      this.#opts.log.debug({ err, jid: job.jid }, 'inline lookup failed');
      return undefined;
    }
  }

  /**
   * Stops taking jobs and leaves the running ones to their job processes (job-process.ts), which
   * return them through their own channel and exit: a restarting minion loses no job. Idle
   * processes exit now. Resolves once every busy process has taken its jobs over (or
   * `timeoutMs` passed); results that came before then are this process's to return.
   */
  async detach(timeoutMs = 10_000): Promise<void> {
    this.#closed = true;
    const taken = [...this.#procs].map((p) => {
      if (p.jobs.size === 0 || !p.child.connected) {
        this.#stop(p);
        return Promise.resolve();
      }
      return new Promise<void>((r) => {
        const done = (msg?: { type?: string }): void => {
          if (msg && msg.type !== 'detached') return;
          clearTimeout(timer);
          p.child.off('message', done);
          p.child.off('exit', onExit);
          r();
        };
        const onExit = (): void => done();
        const timer = setTimeout(done, timeoutMs);
        p.child.on('message', done);
        p.child.once('exit', onExit);
        p.child.send({ type: 'detach' } satisfies DetachJobs);
      });
    });
    await Promise.all(taken);
    const left = [...this.#procs].filter((p) => p.detached).reduce((n, p) => n + p.jobs.size, 0);
    if (left > 0) this.#opts.log.info({ jobs: left }, 'running jobs left to their job processes');
  }

  /** Ends every job process and its jobs, except those a {@link detach} left running. */
  async close(): Promise<void> {
    this.#closed = true;
    const exits = [...this.#procs]
      .filter((p) => !p.detached)
      .map(
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
