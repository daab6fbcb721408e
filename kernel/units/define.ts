/**
 * Long-running units the master runs in their own processes: `ext_processes` (Salt's
 * `ext_processes`) and engines (Salt's `engines:`). Each gets the master config, a logger, a
 * way to fire events and to listen to the bus, and an abort signal for a clean stop; the
 * master's ProcessManager restarts a unit that dies, with capped backoff, and fires
 * `tsalt/process/<name>/restart` each time.
 */
import type { z } from 'zod';
import type { SaltEvent } from '../jobs/types.js';
import type { UnitLogger } from '../loader/define.js';

/** A subscription to the bus: iterate it; `close()` ends the iteration. */
export interface EventStream extends AsyncIterable<SaltEvent> {
  close(): void;
}

/** What a process or an engine receives. */
export interface ProcessContext<O = Readonly<Record<string, unknown>>> {
  /** The unit's name (`webhook`, or the `name` of a `defineProcess`). */
  readonly name: string;
  /** The daemon's resolved config (read-only). */
  readonly opts: Readonly<Record<string, unknown>>;
  /** The engine's options, validated by its `options` schema (`{}` for ext_processes). */
  readonly options: O;
  readonly log: UnitLogger;
  /** Fires an event on the master bus (on a minion: to the master, through `_minion_event`). */
  fire(tag: string, data: Readonly<Record<string, unknown>>): Promise<void>;
  /** Events whose tags start with one of `prefixes` (master only). */
  listen(prefixes: readonly string[]): EventStream;
  /** Aborted when the daemon stops the unit: stop loops, close servers. */
  readonly signal: AbortSignal;
}

/**
 * A unit: `start` runs until the unit is done or `signal` aborts; it may return a cleanup
 * function, called on stop. Throwing (or rejecting) ends the process, which is restarted.
 * `stop`, if given, is called once when the daemon stops the unit (after `signal` aborted and
 * after the cleanup function `start` returned), within the child's shutdown bound (5 s).
 */
export interface ProcessDef<O = Readonly<Record<string, unknown>>> {
  name: string;
  doc?: string;
  /** zod schema of the options (engines: the mapping under the engine's name in `engines:`). */
  options?: z.ZodType<O>;
  start(
    ctx: ProcessContext<O>,
  ): void | (() => Promise<void> | void) | Promise<void | (() => Promise<void> | void)>;
  /** Called on a clean stop (daemon shutdown); not called when the unit crashed. */
  stop?(ctx: ProcessContext<O>): void | Promise<void>;
}

/**
 * Types an `ext_processes` entry.
 * @example
 * export default defineProcess({
 *   name: 'heartbeat',
 *   start(ctx) {
 *     const t = setInterval(() => void ctx.fire('acme/heartbeat', { at: Date.now() }), 60_000);
 *     return () => clearInterval(t);
 *   },
 *   stop(ctx) {
 *     ctx.log.info('heartbeat stopped');
 *   },
 * });
 */
export function defineProcess<O = Readonly<Record<string, unknown>>>(def: ProcessDef<O>): ProcessDef<O> {
  return def;
}

/** Types an engine: a unit loaded by name from `engines:`, with options. */
export const defineEngine = defineProcess;

/** Whether a value has a unit's shape (plain JavaScript units are not trusted). */
export function isProcessDef(value: unknown): value is ProcessDef {
  const v = value as { name?: unknown; start?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.name === 'string' &&
    v.name !== '' &&
    typeof v.start === 'function'
  );
}
