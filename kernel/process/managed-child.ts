/**
 * One managed child: its spec, its state and the `child_process.fork` handle of the current
 * run. The restart and readiness rules live in {@link ProcessManager}; this file only forks,
 * signals and reports.
 */

import { type ChildProcess, fork } from 'node:child_process';
import { type BackoffPolicy, RestartBackoff } from './backoff.js';

/** When to restart a child that exited after it was ready. */
export type RestartPolicy = 'always' | 'on-failure' | 'never';

/** What to run and how to keep it running. */
export interface ChildSpec {
  /** Unique name, used in logs, events, {@link ProcessManager.get} and {@link ProcessManager.send}. */
  name: string;
  /** Absolute path of the JS entry passed to `child_process.fork`. */
  modulePath: string;
  args?: string[];
  /** Added to (and overriding) the parent's environment. */
  env?: Record<string, string>;
  /** Default `'always'`. */
  restart?: RestartPolicy;
  /** Node flags for the child; default: the parent's `process.execArgv` (Node's own default). */
  execArgv?: string[];
  /** IPC serialization; default `'json'`. `'advanced'` carries Buffers, Maps, BigInts. */
  serialization?: 'json' | 'advanced';
}

/** Lifecycle state of a managed child. */
export type ProcessState = 'starting' | 'running' | 'backoff' | 'stopped';

/** How a child's run ended. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Read-only view of a managed child. */
export interface ManagedProcess {
  readonly name: string;
  readonly spec: Readonly<ChildSpec>;
  /** pid of the current run, `undefined` while nothing runs. */
  readonly pid: number | undefined;
  /** How many times it was restarted (the first fork is not a restart). */
  readonly restarts: number;
  readonly state: ProcessState;
  /** How the previous run ended, if one did. */
  readonly lastExit: ExitInfo | undefined;
}

/** Callbacks from the current run of a child to its manager. */
export interface ChildRunHandlers {
  message(raw: unknown): void;
  /** The run ended: normal exit, killed by a signal, or could not be spawned (`spawnError`). */
  exit(info: ExitInfo, spawnError?: Error): void;
}

/** "exited with code 1", "killed by SIGKILL", ... for logs and error messages. */
export function describeExit(info: ExitInfo): string {
  if (info.signal !== null) return `killed by ${info.signal}`;
  if (info.code !== null) return `exited with code ${info.code}`;
  return 'exited';
}

/** Internal, mutable implementation of {@link ManagedProcess}; owned by one ProcessManager. */
export class ManagedChild implements ManagedProcess {
  readonly name: string;
  readonly spec: Readonly<ChildSpec>;
  readonly backoff: RestartBackoff;
  state: ProcessState = 'stopped';
  restarts = 0;
  lastExit: ExitInfo | undefined;
  /** Forked at least once (start() skips it). */
  launched = false;
  /** Reported ready in the current run. */
  ready = false;
  /** Guards the current run: ready timeout, or escalation to SIGKILL after a terminate. */
  readyTimer: NodeJS.Timeout | undefined;
  killTimer: NodeJS.Timeout | undefined;
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();

  constructor(spec: ChildSpec, backoff: BackoffPolicy) {
    this.spec = Object.freeze({
      ...spec,
      args: spec.args ? [...spec.args] : undefined,
      env: spec.env ? { ...spec.env } : undefined,
      execArgv: spec.execArgv ? [...spec.execArgv] : undefined,
    });
    this.name = spec.name;
    this.backoff = new RestartBackoff(backoff);
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** A run is in progress (forked and not yet exited). */
  get alive(): boolean {
    return this.#child !== undefined;
  }

  /** The IPC channel of the current run is open. */
  get connected(): boolean {
    return this.#child?.connected === true;
  }

  /** Forks a new run. The previous run must have exited. */
  fork(handlers: ChildRunHandlers): void {
    const spec = this.spec;
    this.launched = true;
    this.ready = false;
    this.state = 'starting';
    this.backoff.started();
    let resolveExited: () => void = () => {};
    this.#exited = new Promise<void>((resolve) => {
      resolveExited = resolve;
    });
    let ended = false;
    const end = (child: ChildProcess, info: ExitInfo, spawnError?: Error): void => {
      if (ended) return;
      ended = true;
      if (this.#child === child) this.#child = undefined;
      this.clearTimers();
      this.lastExit = info;
      resolveExited();
      handlers.exit(info, spawnError);
    };

    let child: ChildProcess;
    try {
      child = fork(spec.modulePath, spec.args ?? [], {
        env: spec.env ? { ...process.env, ...spec.env } : process.env,
        execArgv: spec.execArgv ?? process.execArgv,
        serialization: spec.serialization ?? 'json',
      });
    } catch (err) {
      // fork throws synchronously only for invalid arguments; report it as a failed run.
      const error = err instanceof Error ? err : new Error(String(err));
      queueMicrotask(() => {
        this.clearTimers();
        this.lastExit = { code: null, signal: null };
        resolveExited();
        handlers.exit({ code: null, signal: null }, error);
      });
      return;
    }
    this.#child = child;
    child.on('message', (raw: unknown) => handlers.message(raw));
    child.on('exit', (code, signal) => end(child, { code, signal }));
    child.on('error', (err) => {
      // 'error' also fires for a failed send or kill; only a failed spawn ends the run.
      if (child.pid === undefined) end(child, { code: null, signal: null }, err);
    });
  }

  /** Sends `signal` to the current run; false if nothing runs or the signal could not be sent. */
  kill(signal: NodeJS.Signals): boolean {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return false;
    try {
      return child.kill(signal);
    } catch {
      return false;
    }
  }

  /** Sends an IPC message to the current run; resolves false if it could not be sent. */
  send(message: unknown): Promise<boolean> {
    const child = this.#child;
    if (!child?.connected) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      try {
        child.send(message as Parameters<ChildProcess['send']>[0], (err) => resolve(err === null));
      } catch {
        resolve(false);
      }
    });
  }

  /** Resolves when the current run has exited (at once if nothing runs). */
  waitExit(): Promise<void> {
    return this.#exited;
  }

  clearTimers(): void {
    if (this.readyTimer !== undefined) clearTimeout(this.readyTimer);
    if (this.killTimer !== undefined) clearTimeout(this.killTimer);
    this.readyTimer = undefined;
    this.killTimer = undefined;
  }
}
