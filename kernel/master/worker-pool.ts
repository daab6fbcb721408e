/**
 * The request server's worker threads: each request goes to the least busy worker; a worker
 * that dies is replaced (its in-flight requests are dropped and the clients' REQ sockets
 * retry, as with a dead Salt MWorker).
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
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
}

export class WorkerPool {
  readonly #opts: WorkerPoolOptions;
  readonly #slots: Slot[] = [];
  #seq = 0;
  #closing = false;

  constructor(opts: WorkerPoolOptions) {
    this.#opts = opts;
  }

  /** Starts every worker; rejects with the first worker's fatal error. */
  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.#opts.size }, (_, i) => this.#spawn(i)));
  }

  #spawn(index: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(this.#opts.entry, { workerData: { ...this.#opts.workerData, index } });
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
        }
      });
      worker.on('error', (err) => this.#opts.log.error({ err, worker: index }, 'request worker crashed'));
      worker.on('exit', (code) => {
        if (this.#closing) return;
        const lost = slot.inflight.size;
        this.#opts.log.error({ worker: index, code, lost }, 'request worker exited; restarting it');
        if (!slot.ready) {
          reject(new Error(`request worker ${index} exited with code ${code} before it was ready`));
          return;
        }
        setTimeout(() => {
          this.#spawn(index).catch((err) => this.#opts.log.error({ err }, 'request worker restart failed'));
        }, 200);
      });
    });
  }

  /** Runs one request on the least busy ready worker. */
  run(frame: Uint8Array): Promise<WorkerReply> {
    let best: Slot | undefined;
    for (const s of this.#slots) {
      if (s?.ready && (!best || s.inflight.size < best.inflight.size)) best = s;
    }
    if (!best) return Promise.reject(new Error('no request worker is ready'));
    const seq = ++this.#seq;
    const slot = best;
    return new Promise((resolve) => {
      slot.inflight.set(seq, resolve);
      const msg: ToWorker = { type: 'request', seq, frame };
      slot.worker.postMessage(msg);
    });
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
    await Promise.all(this.#slots.map((s) => s?.worker.terminate()));
  }
}
