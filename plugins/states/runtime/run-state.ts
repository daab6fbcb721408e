/**
 * The state of one run (the members of Salt's `State` object that `call_chunks` and its
 * helpers share in `salt/state.py`): the results so far, the prereq dry runs (`self.pre`),
 * the chunks being resolved (`self.active`), the `__run_num__` counter, the parallel states
 * in flight and the pillar states see.
 */
import type { RunContext } from '../types.js';

/** One low chunk as the runtime holds it: a mutable copy (Salt rewrites chunks as it runs). */
export type Low = Record<string, unknown> & { state: string; fun: string; name: unknown; __id__: string };

/** One result entry while a run is under way; `StateResult` once finished. */
export type Entry = Record<string, unknown> & {
  result: boolean | null;
  changes: Record<string, unknown>;
  comment?: unknown;
};

/** The results of a run by tag (Salt's `running`). */
export type Running = Record<string, Entry>;

export class Run {
  readonly rc: RunContext;
  /** The pillar states see; `reload_pillar` replaces it. */
  pillar: Readonly<Record<string, unknown>>;
  /** The prereq dry runs by tag (Salt's `self.pre`). */
  readonly pre: Running = {};
  /** Tags being resolved under the current top-level chunk (Salt's `self.active`). */
  active = new Set<string>();
  /** The next `__run_num__`. */
  runNum = 0;
  /** How many `callChunk` calls are under way, one inside the other. */
  nesting = 0;
  /** Set when a failhard state failed inside a requisite chain (Salt's `__FAILHARD__`). */
  failhardHit = false;
  /** The state modules whose `mod_init` ran (Salt's `self.mod_init`). */
  readonly modInit = new Set<string>();
  /** Whether each `mod_aggregate` exists (Salt's `loader_cache`). */
  readonly aggregators = new Map<string, boolean>();
  /** Parallel states in flight: the placeholder entry and what it becomes. */
  readonly procs = new Map<Entry, Promise<Entry>>();
  /** The parallel states that have finished, not yet merged. */
  readonly finished = new Map<Entry, Entry>();

  constructor(rc: RunContext) {
    this.rc = rc;
    this.pillar = rc.pillar;
  }

  /** Takes the next `__run_num__`. */
  nextRunNum(): number {
    const n = this.runNum;
    this.runNum += 1;
    return n;
  }

  /** Starts a parallel state: `placeholder` stands in the results until {@link reconcile}. */
  startParallel(placeholder: Entry, body: Promise<Entry>): void {
    this.procs.set(placeholder, body);
    body.then(
      (done) => this.finished.set(placeholder, done),
      () => undefined,
    );
  }

  /** Merges the parallel states among `entries` that have finished, without waiting (Salt's `reconcile_procs` polled once). */
  reconcileFinished(entries: Iterable<Entry>): void {
    for (const entry of entries) {
      const done = this.finished.get(entry);
      if (!done) continue;
      this.finished.delete(entry);
      this.procs.delete(entry);
      Object.assign(entry, done);
    }
  }

  /** Waits for the parallel states among `entries` and merges their results (Salt's `reconcile_procs` until true). */
  async reconcile(entries: Iterable<Entry>): Promise<void> {
    for (const entry of entries) {
      const proc = this.procs.get(entry);
      if (!proc) continue;
      const done = await proc;
      this.finished.delete(entry);
      this.procs.delete(entry);
      Object.assign(entry, done);
    }
  }
}

/** Python's type name of a value (`int`, `list`, `dict`, ...). */
export function pyTypeName(value: unknown): string {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  if (value === null || value === undefined) return 'NoneType';
  return 'dict';
}
