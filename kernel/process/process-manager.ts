/**
 * The master's ProcessManager: forks the daemon's children, waits until each one says it is
 * ready, restarts the ones that die (capped exponential backoff), and stops them all within
 * a bound (SIGTERM → wait `killTimeoutMs` → SIGKILL). It installs no signal handlers and never
 * exits the process: the bin does that, calling {@link ProcessManager.stop}.
 */

import { EventEmitter } from 'node:events';
import {
  SALT_ERR_PROCESS_CHILD_START,
  SALT_ERR_PROCESS_DUPLICATE,
  SALT_ERR_PROCESS_STOPPED,
  SALT_ERR_PROCESS_UNKNOWN,
  SaltError,
} from '../errors.js';
import { type BackoffPolicy, DEFAULT_BACKOFF } from './backoff.js';
import { parseControlMessage } from './ipc-messages.js';
import {
  type ChildSpec,
  describeExit,
  type ExitInfo,
  ManagedChild,
  type ManagedProcess,
} from './managed-child.js';

export type {
  ChildSpec,
  ExitInfo,
  ManagedProcess,
  ProcessState,
  RestartPolicy,
} from './managed-child.js';

/** The logger methods the manager uses; a pino logger fits. */
export interface ProcessLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface ProcessManagerOptions {
  log: ProcessLogger;
  /** How long stop() waits after SIGTERM before SIGKILL. Default 10 000 ms. */
  killTimeoutMs?: number;
  /** Restart backoff. Default 100 ms doubling to 10 s, reset after 30 s of uptime. */
  backoff?: BackoffPolicy;
  /** How long a child may take to send `{type:'ready'}`. Default 60 000 ms; 0 = no limit. */
  readyTimeoutMs?: number;
}

/** Details of a restart, passed with the `'restart'` event. */
export interface RestartInfo {
  /** How the previous run ended. */
  exit: ExitInfo;
  /** How long the manager waited before this restart. */
  delayMs: number;
}

/** The manager's events and their arguments. */
export interface ProcessManagerEvents {
  /** A child was forked again after its previous run ended (`proc.restarts` already counts it). */
  restart: [proc: ManagedProcess, info: RestartInfo];
  /** A child's run ended (any reason, including stop()). */
  exit: [proc: ManagedProcess, info: ExitInfo];
  /** A child sent `{type:'ready'}` (first start or after a restart). */
  ready: [proc: ManagedProcess];
  /** A child sent a message that is not a control message. */
  message: [proc: ManagedProcess, message: unknown];
}

interface StartWaiter {
  resolve(): void;
  reject(err: Error): void;
}

const DEFAULT_KILL_TIMEOUT_MS = 10_000;
const DEFAULT_READY_TIMEOUT_MS = 60_000;

export class ProcessManager extends EventEmitter<ProcessManagerEvents> {
  readonly #log: ProcessLogger;
  readonly #killTimeoutMs: number;
  readonly #readyTimeoutMs: number;
  readonly #backoff: BackoffPolicy;
  readonly #procs = new Map<string, ManagedChild>();
  readonly #waiters = new Map<ManagedChild, StartWaiter>();
  /** Exit info of the run that a scheduled restart replaces. */
  readonly #pendingExit = new Map<ManagedChild, RestartInfo>();
  #restarting = true;
  #stopPromise: Promise<void> | undefined;

  constructor(opts: ProcessManagerOptions) {
    super();
    this.#log = opts.log;
    this.#killTimeoutMs = Math.max(0, opts.killTimeoutMs ?? DEFAULT_KILL_TIMEOUT_MS);
    this.#readyTimeoutMs = Math.max(0, opts.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
    this.#backoff = { ...(opts.backoff ?? DEFAULT_BACKOFF) };
  }

  /** Registers a child; it is forked by the next {@link start}. Names are unique. */
  add(spec: ChildSpec): ManagedProcess {
    if (this.#stopPromise) throw new SALT_ERR_PROCESS_STOPPED();
    if (this.#procs.has(spec.name)) throw new SALT_ERR_PROCESS_DUPLICATE(spec.name);
    const proc = new ManagedChild(spec, this.#backoff);
    this.#procs.set(spec.name, proc);
    return proc;
  }

  get(name: string): ManagedProcess | undefined {
    return this.#procs.get(name);
  }

  list(): ManagedProcess[] {
    return [...this.#procs.values()];
  }

  /**
   * Forks every child added since the last start() and resolves when each has sent
   * `{type:'ready'}`. Rejects, after stopping every child, with the child's own error if it
   * sent `{type:'fatal', code, message}`, or SALT_ERR_PROCESS_CHILD_START if it exited or timed
   * out before it was ready. Such a child is not restarted.
   */
  async start(): Promise<void> {
    if (this.#stopPromise) throw new SALT_ERR_PROCESS_STOPPED();
    const fresh = [...this.#procs.values()].filter((p) => !p.launched);
    const readies = fresh.map(
      (proc) =>
        new Promise<void>((resolve, reject) => {
          this.#waiters.set(proc, { resolve, reject });
          this.#fork(proc);
        }),
    );
    try {
      await Promise.all(readies);
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  /** No more restarts: cancels scheduled ones; running children keep running. */
  stopRestarting(): void {
    this.#restarting = false;
    for (const proc of this.#procs.values()) {
      if (proc.state === 'backoff') {
        proc.backoff.cancel();
        proc.state = 'stopped';
        this.#pendingExit.delete(proc);
      }
    }
  }

  /**
   * Stops every child: stopRestarting(), SIGTERM to all, wait up to `killTimeoutMs`, SIGKILL
   * the survivors (logged by name), and resolve when all have exited. Idempotent.
   */
  stop(): Promise<void> {
    this.#stopPromise ??= this.#stopAll();
    return this.#stopPromise;
  }

  /** Sends an IPC message to a child's current run; resolves false if it is not connected. */
  send(name: string, message: unknown): Promise<boolean> {
    const proc = this.#procs.get(name);
    if (!proc) return Promise.reject(new SALT_ERR_PROCESS_UNKNOWN(name));
    return proc.send(message);
  }

  async #stopAll(): Promise<void> {
    this.stopRestarting();
    const alive = [...this.#procs.values()].filter((p) => p.alive);
    if (alive.length > 0) {
      this.#log.info(
        { processes: alive.map((p) => p.name), killTimeoutMs: this.#killTimeoutMs },
        'stopping processes',
      );
    }
    for (const proc of alive) proc.kill('SIGTERM');
    await waitAll(alive, this.#killTimeoutMs);

    const survivors = alive.filter((p) => p.alive);
    if (survivors.length > 0) {
      this.#log.error(
        {
          processes: survivors.map((p) => ({ name: p.name, pid: p.pid })),
          killTimeoutMs: this.#killTimeoutMs,
        },
        `processes still running ${this.#killTimeoutMs} ms after SIGTERM, sending SIGKILL: ${survivors
          .map((p) => p.name)
          .join(', ')}`,
      );
      for (const proc of survivors) proc.kill('SIGKILL');
      await waitAll(survivors, Math.max(this.#killTimeoutMs, 1000));
      const unkillable = survivors.filter((p) => p.alive);
      if (unkillable.length > 0) {
        this.#log.error(
          { processes: unkillable.map((p) => ({ name: p.name, pid: p.pid })) },
          'processes did not exit after SIGKILL',
        );
      }
    }
    for (const proc of this.#procs.values()) {
      if (!proc.alive) proc.state = 'stopped';
    }
  }

  #fork(proc: ManagedChild): void {
    proc.fork({
      message: (raw) => this.#onMessage(proc, raw),
      exit: (info, spawnError) => this.#onExit(proc, info, spawnError),
    });
    this.#log.debug({ process: proc.name, pid: proc.pid, restarts: proc.restarts }, 'process forked');
    if (this.#readyTimeoutMs > 0) {
      const ms = this.#readyTimeoutMs;
      proc.readyTimer = setTimeout(() => {
        proc.readyTimer = undefined;
        this.#failRun(proc, new SALT_ERR_PROCESS_CHILD_START(proc.name, `not ready after ${ms} ms`));
      }, ms);
    }
  }

  #onMessage(proc: ManagedChild, raw: unknown): void {
    const control = parseControlMessage(raw);
    if (!control) {
      this.emit('message', proc, raw);
      return;
    }
    if (control.type === 'ready') {
      if (proc.ready) return;
      proc.ready = true;
      if (proc.readyTimer !== undefined) clearTimeout(proc.readyTimer);
      proc.readyTimer = undefined;
      proc.state = 'running';
      this.#log.info({ process: proc.name, pid: proc.pid, restarts: proc.restarts }, 'process ready');
      const waiter = this.#waiters.get(proc);
      this.#waiters.delete(proc);
      waiter?.resolve();
      this.emit('ready', proc);
      return;
    }
    const err = new SaltError(control.code, control.message, { details: { process: proc.name } });
    this.#failRun(proc, err);
  }

  /**
   * The current run cannot work (fatal message or ready timeout): reject start() if it is
   * waiting, and terminate the run; its exit then follows the restart rules.
   */
  #failRun(proc: ManagedChild, err: SaltError): void {
    this.#log.error(
      { process: proc.name, pid: proc.pid, code: err.code, err: err.message },
      `process ${proc.name} failed: ${err.message}`,
    );
    const waiter = this.#waiters.get(proc);
    this.#waiters.delete(proc);
    waiter?.reject(err);
    this.#terminate(proc);
  }

  /** SIGTERM now, SIGKILL after `killTimeoutMs` if the run is still alive. */
  #terminate(proc: ManagedChild): void {
    if (!proc.alive || proc.killTimer !== undefined) return;
    proc.kill('SIGTERM');
    proc.killTimer = setTimeout(() => {
      proc.killTimer = undefined;
      if (!proc.alive) return;
      this.#log.warn({ process: proc.name, pid: proc.pid }, 'process ignored SIGTERM, sending SIGKILL');
      proc.kill('SIGKILL');
    }, this.#killTimeoutMs);
  }

  #onExit(proc: ManagedChild, info: ExitInfo, spawnError?: Error): void {
    try {
      this.#afterExit(proc, info, spawnError);
    } finally {
      // Emitted after the state is updated, so listeners see 'backoff' or 'stopped'.
      this.emit('exit', proc, info);
    }
  }

  #afterExit(proc: ManagedChild, info: ExitInfo, spawnError?: Error): void {
    const wasReady = proc.ready;
    proc.ready = false;
    const how = spawnError ? `could not be spawned: ${spawnError.message}` : describeExit(info);
    const fields = {
      process: proc.name,
      code: info.code,
      signal: info.signal,
      restarts: proc.restarts,
    };
    const waiter = this.#waiters.get(proc);
    if (waiter) {
      // Failed during start(): report it, never loop restarting a child that cannot start.
      this.#waiters.delete(proc);
      proc.state = 'stopped';
      const why = this.#stopPromise ? 'stopped before it was ready' : `${how} before it was ready`;
      this.#log.error(fields, `process ${proc.name} ${why}`);
      waiter.reject(new SALT_ERR_PROCESS_CHILD_START(proc.name, why, { cause: spawnError }));
      return;
    }
    if (this.#stopPromise || !this.#restarting) {
      proc.state = 'stopped';
      this.#log.info(fields, `process ${proc.name} ${how}`);
      return;
    }
    const policy = proc.spec.restart ?? 'always';
    const clean = wasReady && info.code === 0 && info.signal === null;
    if (policy === 'never' || (policy === 'on-failure' && clean)) {
      proc.state = 'stopped';
      this.#log.warn(
        { ...fields, policy },
        `process ${proc.name} ${how}; not restarting (restart: ${policy})`,
      );
      return;
    }
    proc.state = 'backoff';
    const delayMs = proc.backoff.schedule(() => this.#restart(proc));
    this.#pendingExit.set(proc, { exit: info, delayMs });
    const phase = wasReady ? '' : ' before it was ready';
    this.#log.error(
      { ...fields, delayMs },
      `process ${proc.name} ${how}${phase}; restarting in ${delayMs} ms`,
    );
  }

  #restart(proc: ManagedChild): void {
    const info = this.#pendingExit.get(proc);
    this.#pendingExit.delete(proc);
    if (this.#stopPromise || !this.#restarting) {
      proc.state = 'stopped';
      return;
    }
    proc.restarts += 1;
    this.#fork(proc);
    const restart: RestartInfo = info ?? { exit: { code: null, signal: null }, delayMs: 0 };
    this.#log.info(
      {
        process: proc.name,
        pid: proc.pid,
        restarts: proc.restarts,
        code: restart.exit.code,
        signal: restart.exit.signal,
      },
      `process ${proc.name} restarted (previous run ${describeExit(restart.exit)})`,
    );
    this.emit('restart', proc, restart);
  }
}

/** Resolves when every run has exited or after `ms`, whichever comes first. */
async function waitAll(procs: ManagedChild[], ms: number): Promise<void> {
  if (procs.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([Promise.all(procs.map((p) => p.waitExit())), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
