import { describe, expect, it } from 'vitest';
import { silentLogger } from '../kernel/log.js';
import { requestWorkerCount, WorkerPool } from './worker-pool.js';

/** A worker that replies with its index after `frame[0]` ms. */
const ECHO = new URL(
  `data:text/javascript,${encodeURIComponent(`
import { parentPort, workerData } from 'node:worker_threads';
parentPort.on('message', (msg) => {
  if (msg.type !== 'request') return;
  setTimeout(() => parentPort.postMessage({ type: 'reply', seq: msg.seq, reply: new Uint8Array([workerData.index]), publishes: [], events: [], signIns: [] }), msg.frame[0]);
});
parentPort.postMessage({ type: 'ready' });
`)}`,
);

function pool(size: number, maxInflightPerWorker?: number): WorkerPool {
  return new WorkerPool({
    size,
    entry: ECHO,
    workerData: {},
    log: silentLogger(),
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
    ...(maxInflightPerWorker ? { maxInflightPerWorker } : {}),
  });
}

describe('WorkerPool', () => {
  it('sends every request of one minion to the same worker', async () => {
    const p = pool(3);
    await p.start();
    try {
      const byId = new Map<string, Set<number>>();
      const all = [];
      for (let i = 0; i < 60; i++) {
        const id = `m${i % 6}`;
        all.push(
          p.run(new Uint8Array([1]), id).then((r) => {
            const set = byId.get(id) ?? new Set<number>();
            set.add(r.reply[0] as number);
            byId.set(id, set);
          }),
        );
      }
      await Promise.all(all);
      for (const workers of byId.values()) expect(workers.size).toBe(1);
      // requests without an id still use every worker
      const anon = await Promise.all(Array.from({ length: 6 }, () => p.run(new Uint8Array([5]))));
      expect(new Set(anon.map((r) => r.reply[0])).size).toBe(3);
    } finally {
      await p.close();
    }
  });

  it('asks the caller to wait past its capacity and lets it go on as replies come', async () => {
    const p = pool(2, 2);
    await p.start();
    try {
      expect(p.capacity).toBe(4);
      const replies = [];
      for (let i = 0; i < 3; i++) replies.push(p.run(new Uint8Array([30])));
      expect(p.whenAvailable()).toBeUndefined();
      replies.push(p.run(new Uint8Array([30])));
      const wait = p.whenAvailable();
      expect(wait).toBeInstanceOf(Promise);
      await wait;
      expect(p.inflight).toBeLessThan(4);
      await Promise.all(replies);
      expect(p.inflight).toBe(0);
      // a waiter is released when the pool closes
      for (let i = 0; i < 4; i++) void p.run(new Uint8Array([200]));
      const pending = p.whenAvailable();
      await p.close();
      await pending;
    } finally {
      await p.close();
    }
  });
});

describe('requestWorkerCount', () => {
  it('starts no more threads than cores (one on 2 cores or fewer), and never more than configured', () => {
    expect(requestWorkerCount(5, 2)).toBe(1);
    expect(requestWorkerCount(5, 1)).toBe(1);
    expect(requestWorkerCount(2, 3)).toBe(2);
    expect(requestWorkerCount(5, 16)).toBe(5);
    expect(requestWorkerCount(1, 16)).toBe(1);
    expect(requestWorkerCount(3, 4)).toBe(3);
  });
});
