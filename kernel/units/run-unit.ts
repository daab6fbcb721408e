/**
 * The life of one unit (an `ext_processes` entry or an engine) inside its child process, on
 * the master or on a minion: load it, give it its context, start it, and on shutdown abort its
 * signal, run the cleanup `start` returned, then its `stop`, then release the context. A unit
 * that cannot load, refuses its options or throws (at start or later) ends the process with
 * exit code 1: its ProcessManager restarts it with capped backoff.
 */
import type { UnitLogger } from '../loader/define.js';
import type { ClosableContext } from './context.js';
import type { ProcessDef } from './define.js';

export interface RunUnitOptions {
  /** The child's name (`engine-tail`, `process-heartbeat`), for the log. */
  label: string;
  kind: 'process' | 'engine';
  log: UnitLogger;
  /** Finds the unit's definition. */
  find(): Promise<ProcessDef>;
  /** Builds its context (validates its options: may throw). */
  context(def: ProcessDef, signal: AbortSignal): ClosableContext;
  /** Ends the process after a failure; default `process.exit`. */
  exit?(code: number): void;
  /**
   * Tells the daemon the child is up (`signalReady`), awaited before the unit loads: a unit
   * that fails at once is then a restart with backoff, never a failed daemon start.
   */
  ready?(): Promise<void>;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Starts the unit in the background (the child reports ready at once: a unit that cannot
 * start must never hold up its daemon) and returns the child's shutdown function.
 */
export function runUnit(o: RunUnitOptions): () => Promise<void> {
  const abort = new AbortController();
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let def: ProcessDef | undefined;
  let ctx: ClosableContext | undefined;
  let cleanup: (() => Promise<void> | void) | undefined;
  let stopping = false;
  const fail = (err: unknown) => {
    if (stopping) {
      o.log.debug({ err }, `${o.label} ended while stopping: ${message(err)}`);
      return;
    }
    o.log.error({ err }, `${o.label} failed: ${message(err)}`);
    // flush what the unit fired before it failed (bounded), then end the process
    const flushed = ctx?.close().catch(() => undefined);
    void Promise.race([flushed, new Promise((r) => setTimeout(r, 500).unref())]).finally(() => exit(1));
  };
  const run = (async () => {
    await o.ready?.();
    def = await o.find();
    ctx = o.context(def, abort.signal);
    // `start` may set things up and return, or run for as long as the unit lives.
    const started = def.start(ctx);
    o.log.info({ unit: def.name, kind: o.kind }, `${o.label} started`);
    const done = await started;
    if (typeof done === 'function') cleanup = done;
  })().catch(fail);
  return async () => {
    stopping = true;
    abort.abort();
    // a `start` that runs until the signal aborts ends now; give it a moment to return
    await Promise.race([run, new Promise((r) => setTimeout(r, 1000).unref())]);
    try {
      await cleanup?.();
      if (def && ctx) await def.stop?.(ctx);
      if (def) o.log.info({ unit: def.name, kind: o.kind }, `${o.label} stopped`);
    } catch (err) {
      o.log.warn({ err }, `${o.label} did not stop cleanly: ${message(err)}`);
    } finally {
      await ctx?.close();
    }
  };
}
