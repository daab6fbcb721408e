/**
 * Where the request server runs a light request (a signed-in minion's `_return`,
 * `_minion_event`, file-server call): on its router thread, which saves the two thread
 * hand-offs a worker costs, unless that thread is the bottleneck. When its event loop has been
 * busy nearly all of the last windows, a growing share of light requests goes to the worker
 * threads, which then run in parallel on other cores; the share falls back as the loop
 * recovers. With no more than 2 cores there are no other cores to gain: the hand-offs would
 * only add CPU, so every light request stays on the router thread.
 */
import { availableParallelism } from 'node:os';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';

export interface LightLaneOptions {
  /** Send a share of light requests to workers at all; default: more than 2 cores. */
  spill?: boolean;
  /** Event-loop utilization (0-1) above which the share sent to workers grows; default 0.9. */
  high?: number;
  /** Utilization below which it shrinks; default 0.6. */
  low?: number;
  /** How much the share moves per window; default 0.25. */
  step?: number;
  /** Length of a window (ms); default 100. */
  windowMs?: number;
}

export class LightLane {
  readonly #spill: boolean;
  readonly #high: number;
  readonly #low: number;
  readonly #step: number;
  readonly #windowMs: number;
  #share = 0;
  #credit = 0;
  #timer: NodeJS.Timeout | undefined;
  #last: EventLoopUtilization | undefined;

  constructor(opts: LightLaneOptions = {}) {
    this.#spill = opts.spill ?? availableParallelism() > 2;
    this.#high = opts.high ?? 0.9;
    this.#low = opts.low ?? 0.6;
    this.#step = opts.step ?? 0.25;
    this.#windowMs = opts.windowMs ?? 100;
  }

  /** The share (0-1) of light requests now sent to workers. */
  get share(): number {
    return this.#share;
  }

  /** Takes one window's event-loop utilization (0-1) into account. */
  observe(utilization: number): void {
    if (!this.#spill) return;
    if (utilization > this.#high) this.#share = Math.min(1, this.#share + this.#step);
    else if (utilization < this.#low) this.#share = Math.max(0, this.#share - this.#step);
    if (this.#share === 0) this.#credit = 0;
  }

  /** True: run this light request on the router thread; false: send it to a worker. */
  here(): boolean {
    if (this.#share === 0) return true;
    this.#credit += this.#share;
    if (this.#credit < 1) return true;
    this.#credit -= 1;
    return false;
  }

  /** Starts measuring this thread's event loop (nothing to measure without spilling). */
  start(): void {
    if (!this.#spill || this.#timer) return;
    this.#last = performance.eventLoopUtilization();
    this.#timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.observe(performance.eventLoopUtilization(now, this.#last).utilization);
      this.#last = now;
    }, this.#windowMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
