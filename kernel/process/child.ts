/**
 * Helpers used INSIDE a child forked by {@link ProcessManager}: report readiness or a fatal
 * error, receive the master's messages, exit when the master dies, and shut down cleanly on
 * SIGTERM. Run outside a ProcessManager (no IPC channel) they degrade to no-ops, except the
 * signal handlers.
 *
 * This file is the child's runtime, so unlike the rest of the kernel it ends the process
 * (`process.exit`) once its shutdown has run or timed out.
 */

import type { ChildControlMessage } from './ipc-messages.js';

/** Default bound on a child's cleanup after SIGTERM; keep it below the master's killTimeoutMs. */
export const DEFAULT_CHILD_SHUTDOWN_MS = 5_000;

/** Whether this process has an open IPC channel to a parent. */
export function hasParent(): boolean {
  return typeof process.send === 'function' && process.connected;
}

function sendToParent(message: ChildControlMessage): Promise<void> {
  if (!hasParent() || !process.send) return Promise.resolve();
  const send = process.send.bind(process);
  return new Promise<void>((resolve) => {
    try {
      // Resolve either way: a parent that is gone cannot be told anything.
      send(message, undefined, undefined, () => resolve());
    } catch {
      resolve();
    }
  });
}

/** Tells the master this child is up (sockets bound). Resolves once the message is flushed. */
export function signalReady(): Promise<void> {
  return sendToParent({ type: 'ready' });
}

/**
 * Tells the master this child cannot work (e.g. `SALT_ERR_BUS_ADDRESS_IN_USE`); during the
 * master's start() this becomes its error. Resolves once flushed; the child should then exit.
 */
export function signalFatal(err: { code: string; message: string }): Promise<void> {
  return sendToParent({ type: 'fatal', code: err.code, message: err.message });
}

/** Calls `handler` for each message the master sends; returns a function that unsubscribes. */
export function onParentMessage(handler: (message: unknown) => void): () => void {
  const listener = (message: unknown): void => handler(message);
  process.on('message', listener);
  return () => {
    process.off('message', listener);
  };
}

export interface ShutdownOptions {
  /** Bound on `shutdown`; the process exits with code 1 when it is exceeded. */
  timeoutMs?: number;
}

let shuttingDown = false;

/**
 * Runs `shutdown` once (later calls are ignored), then exits: 0 if it resolved, 1 if it threw
 * or took longer than `timeoutMs`.
 */
function shutdownAndExit(shutdown: (() => Promise<void>) | undefined, timeoutMs: number): void {
  if (shuttingDown) return;
  shuttingDown = true;
  if (!shutdown) process.exit(0);
  const timer = setTimeout(() => process.exit(1), timeoutMs);
  Promise.resolve()
    .then(shutdown)
    .then(
      () => {
        clearTimeout(timer);
        process.exit(0);
      },
      () => {
        clearTimeout(timer);
        process.exit(1);
      },
    );
}

/**
 * On SIGTERM, runs `shutdown` (close sockets, stop workers) and exits 0 within `timeoutMs`.
 * SIGINT does the same when this process has no parent; under a master it is ignored, because
 * a terminal's Ctrl-C reaches the whole process group and the master then sends SIGTERM itself.
 * Returns a function that removes the handlers.
 */
export function installChildSignalHandlers(
  shutdown: () => Promise<void>,
  opts: ShutdownOptions = {},
): () => void {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CHILD_SHUTDOWN_MS;
  const onTerm = (): void => shutdownAndExit(shutdown, timeoutMs);
  const onInt = (): void => {
    if (!hasParent()) shutdownAndExit(shutdown, timeoutMs);
  };
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  return () => {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  };
}

export interface ParentWatchOptions extends ShutdownOptions {
  /** Optional cleanup before exiting; without it the child exits at once. */
  shutdown?: () => Promise<void>;
  /** Backup check of the parent pid (covers a lost 'disconnect'), in ms. Default 1000; 0 = off. */
  pollMs?: number;
}

/**
 * Exits this child when its master is gone, even if the master was SIGKILLed: the IPC
 * channel's 'disconnect' event, backed by polling `process.ppid` (it changes when the child is
 * re-parented). No-op without a parent. Returns a function that stops watching.
 */
export function exitWhenParentDies(opts: ParentWatchOptions = {}): () => void {
  if (typeof process.send !== 'function') return () => {};
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CHILD_SHUTDOWN_MS;
  const gone = (): void => shutdownAndExit(opts.shutdown, timeoutMs);
  if (!process.connected) {
    gone();
    return () => {};
  }
  process.on('disconnect', gone);
  const parentPid = process.ppid;
  const pollMs = opts.pollMs ?? 1000;
  const poll =
    pollMs > 0
      ? setInterval(() => {
          if (process.ppid !== parentPid) gone();
        }, pollMs)
      : undefined;
  poll?.unref();
  return () => {
    process.off('disconnect', gone);
    if (poll) clearInterval(poll);
  };
}
