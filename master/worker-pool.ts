/**
 * The request server's worker threads: a minion's requests go to its own worker (by a hash of
 * its id, so its cached keys live in one thread), unless that worker is far busier than the
 * least busy one; other requests go to the least busy worker. A worker that dies is replaced
 * (its in-flight requests are dropped and the clients' REQ sockets retry, as with a dead Salt
 * MWorker).
 */
import { availableParallelism } from 'node:os';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { affinityHash } from './request-affinity.js';
import type { Vouched } from './request-handler.js';
import type { FromWorker, ToWorker, WorkerReply } from './worker-protocol.js';

interface Slot {
  worker: Worker;
  inflight: Map<number, (reply: WorkerReply) => void>;
  ready: boolean;
}

export interface WorkerPoolOptions {
  size: number;
  entry: URL;
  workerData: Record<string, unknown>;
  log: Logger;
  /** V8 heap limits of each worker (e.g. a small young generation, see request-server.ts). */
  resourceLimits?: ResourceLimits;
  /** Requests in flight per worker (on average) before {@link WorkerPool.whenAvailable} waits; default 32. */
  maxInflightPerWorker?: number;
}

/**
 * How much busier than the least busy worker a minion's own worker may be before the request
 * goes elsewhere: `inflight > 2 × least + AFFINITY_SLACK`.
 */
const AFFINITY_SLACK = 32;

/**
 * Threads to start for `worker_threads`. A Salt MWorker serves one request at a time, so Salt
 * wants several; a tsalt worker serves many at once (its I/O is asynchronous), so threads past
 * the core count only add contention: on 2 cores, 5 threads cost twice the CPU per `_return`
 * of 2 (SQLite write locks, context switches). The setting is an upper bound. On 2 cores or
 * fewer one thread: the request server's router thread takes minions' sign-ins, `_pillar` and
 * returns itself there (request-server.ts), so a worker serves only users' commands, and a
 * second isolate cost ~11-16 MiB of PSS at 4,000 swarm minions for nothing measurable.
 */
export function requestWorkerCount(configured: number, cores = availableParallelism()): number {
  return Math.max(1, Math.min(configured, cores <= 2 ? 1 : cores));
}

export class WorkerPool {
  readonly #opts: WorkerPoolOptions;
  readonly #slots: Slot[] = [];
  #seq = 0;
  #closing = false;
  #waiters: (() => void)[] = [];

  constructor(opts: WorkerPoolOptions) {
    this.#opts = opts;
  }

  /** Starts every worker; rejects with the first worker's fatal error. */
  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.#opts.size }, (_, i) => this.#spawn(i)));
  }

  #spawn(index: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(this.#opts.entry, {
        workerData: { ...this.#opts.workerData, index },
        ...(this.#opts.resourceLimits ? { resourceLimits: this.#opts.resourceLimits } : {}),
      });
      const slot: Slot = { worker, inflight: new Map(), ready: false };
      this.#slots[index] = slot;
      worker.on('message', (msg: FromWorker) => {
        if (msg.type === 'ready') {
          slot.ready = true;
          resolve();
        } else if (msg.type === 'fatal') {
          reject(Object.assign(new Error(msg.message), { code: msg.code }));
        } else {
          const done = slot.inflight.get(msg.seq);
          slot.inflight.delete(msg.seq);
          done?.(msg);
          this.#wake();
        }
      });
      worker.on('error', (err) => this.#opts.log.error({ err, worker: index }, 'request worker crashed'));
      worker.on('exit', (code) => {
        if (this.#closing) return;
        const wasReady = slot.ready;
        // no new requests for the dead thread (they would never be answered) until it is replaced
        slot.ready = false;
        const lost = slot.inflight.size;
        slot.inflight.clear();
        this.#wake();
        this.#opts.log.error({ worker: index, code, lost }, 'request worker exited; restarting it');
        if (!wasReady) {
          reject(new Error(`request worker ${index} exited with code ${code} before it was ready`));
          return;
        }
        setTimeout(() => {
          this.#spawn(index).catch((err) => this.#opts.log.error({ err }, 'request worker restart failed'));
        }, 200);
      });
    });
  }

  /**
   * Runs one request: on the worker `affinity` (a minion id) hashes to, unless that one is not
   * ready or far busier than the least busy ready worker, which takes it then. `vouched`: what
   * the caller checked of the request already (request-handler.ts).
   */
  run(frame: Uint8Array, affinity?: string, vouched?: Vouched): Promise<WorkerReply> {
    let best: Slot | undefined;
    for (const s of this.#slots) {
      if (s?.ready && (!best || s.inflight.size < best.inflight.size)) best = s;
    }
    if (!best) return Promise.reject(new Error('no request worker is ready'));
    if (affinity !== undefined && this.#slots.length > 1) {
      const home = this.#slots[affinityHash(affinity) % this.#slots.length];
      if (home?.ready && home.inflight.size <= 2 * best.inflight.size + AFFINITY_SLACK) best = home;
    }
    const seq = ++this.#seq;
    const slot = best;
    return new Promise((resolve) => {
      slot.inflight.set(seq, resolve);
      const msg: ToWorker = vouched
        ? { type: 'request', seq, frame, vouched }
        : { type: 'request', seq, frame };
      slot.worker.postMessage(msg);
    });
  }

  /** Most requests in flight before {@link whenAvailable} makes the caller wait. */
  get capacity(): number {
    return this.#opts.size * (this.#opts.maxInflightPerWorker ?? 32);
  }

  /**
   * Undefined while fewer than {@link capacity} requests are in flight; otherwise a promise
   * that resolves once a reply brings the count below it. The request server stops reading its
   * ROUTER meanwhile, so a sign-in storm waits in libzmq's queues (a few dozen bytes per
   * request) rather than as thousands of half-done requests in the workers' heaps.
   */
  whenAvailable(): Promise<void> | undefined {
    if (this.#closing || this.inflight < this.capacity) return undefined;
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #wake(): void {
    if (this.#waiters.length === 0 || (!this.#closing && this.inflight >= this.capacity)) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }

  broadcast(msg: ToWorker): void {
    for (const s of this.#slots) s?.worker.postMessage(msg);
  }

  /** Number of requests being handled now. */
  get inflight(): number {
    return this.#slots.reduce((n, s) => n + (s?.inflight.size ?? 0), 0);
  }

  async close(): Promise<void> {
    this.#closing = true;
    this.#wake();
    await Promise.all(this.#slots.map((s) => s?.worker.terminate()));
  }
}
