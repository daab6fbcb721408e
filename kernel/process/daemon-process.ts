/**
 * Processes a plugin adds to its daemon: `api.processes.register(defineDaemonProcess({...}))`.
 * The daemon runs each in a child of its own under its ProcessManager (restarted with capped
 * backoff when it dies, `tsalt/process/<name>/restart` fired each time), as Salt runs its
 * Reactor, EventReturn and salt-api processes. The child applies the same plugins, finds the
 * definition by name and starts it; the daemon is up once every child's `start` has resolved.
 */
import type { Logger } from 'pino';
import type { KindRegistrar } from '../kinds.js';
import type { EventStream } from '../units/define.js';

/** What a daemon process receives. */
export interface DaemonProcessContext {
  /** The process's name (its child's name in the ProcessManager and in restart events). */
  readonly name: string;
  /** The master's resolved config, read-only (plugin processes run on the master only). */
  readonly config: Readonly<Record<string, unknown>>;
  /** The daemon's config directory (`-c`). */
  readonly configDir: string;
  readonly log: Logger;
  /** Fires an event on the master bus. */
  fire(tag: string, data: Readonly<Record<string, unknown>>): Promise<void>;
  /** Events whose tags start with one of `prefixes` (master only). */
  listen(prefixes: readonly string[]): EventStream;
  /** Aborted when the daemon stops the process. */
  readonly signal: AbortSignal;
  /** The units plugins registered, by kind (the REST routes the netapi serves, ...). */
  readonly kinds: Pick<KindRegistrar, 'all'>;
}

/** A process a plugin adds to its daemon. */
export interface DaemonProcessDef {
  /** Unique among the daemon's children: `reactor`, `netapi`, `acme-sync`, ... */
  readonly name: string;
  /**
   * Node options of the child. Default: the daemon's children's (a 1 MiB young generation,
   * small for processes that keep little); `[]` gives V8's defaults.
   */
  readonly execArgv?: readonly string[];
  /**
   * Starts the process's work and resolves once it is up, with the function that stops it (the
   * work goes on in the background meanwhile). A throw is the child's fatal error: at the
   * daemon's start the daemon refuses to start with it; later the child is restarted.
   */
  start(ctx: DaemonProcessContext): Promise<() => Promise<void>>;
}

/**
 * Types a daemon process. A typing aid only.
 * @example
 * api.processes.register(defineDaemonProcess({
 *   name: 'acme-heartbeat',
 *   async start(ctx) {
 *     const t = setInterval(() => void ctx.fire('acme/heartbeat', { at: Date.now() }), 60_000);
 *     return async () => clearInterval(t);
 *   },
 * }));
 */
export function defineDaemonProcess(def: DaemonProcessDef): DaemonProcessDef {
  return def;
}
