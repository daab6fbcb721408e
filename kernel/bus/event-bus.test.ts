import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SaltEvent } from '../jobs/types.js';
import { encodeEventBody } from '../serial/index.js';
import { requestBusStats } from './bus-client.js';
import { EventFirer, EventListener, masterEventAddresses } from './event-bus.js';
import { EventPublisher } from './event-publisher.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-bus-'));
const addrs = masterEventAddresses(dir);
const warned: string[] = [];
const pub = new EventPublisher({
  maxEventSize: 4096,
  subscriberHwm: 5000,
  log: { warn: (_o, m) => warned.push(m), error: () => undefined },
});
let running: Promise<void>;
const firer = new EventFirer(addrs);

async function next(
  it: AsyncIterator<SaltEvent>,
  pred: (e: SaltEvent) => boolean,
  ms = 5000,
): Promise<SaltEvent> {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await Promise.race([
      it.next(),
      new Promise<'timeout'>((res) => setTimeout(() => res('timeout'), Math.max(1, deadline - Date.now()))),
    ]);
    if (r === 'timeout' || r.done) throw new Error('no matching event');
    if (pred(r.value)) return r.value;
  }
}

beforeAll(async () => {
  await pub.bind(addrs);
  running = pub.run();
});

afterAll(async () => {
  await firer.close();
  pub.close();
  await running;
  rmSync(dir, { recursive: true, force: true });
});

describe('event bus', () => {
  it('delivers by tag prefix, and refuses data that is not a map with a trace event', async () => {
    const l = new EventListener(addrs, ['my/', 'tsalt/bus/']);
    await l.ready();
    const it = l[Symbol.asyncIterator]();
    firer.fire('other/x', { a: 0 });
    firer.fire('my/x', { a: 1 });
    expect((await next(it, () => true)).tag).toBe('my/x');
    firer.fire('my/list', ['a'] as unknown as Record<string, unknown>);
    const d = await next(it, (e) => e.tag === 'tsalt/bus/dropped');
    expect(d.data).toMatchObject({ tag: 'my/list', reason: 'not-a-map' });
    l.close();
    expect(warned.some((m) => m.includes('dropped event my/list') && m.includes('not a map'))).toBe(true);
  });

  it('trims or drops events over max_event_size, says so, and keeps serving', async () => {
    const l = new EventListener(addrs, ['big/', 'tsalt/bus/', 'after']);
    await l.ready();
    const it = l[Symbol.asyncIterator]();
    firer.fire('big/trim', { keep: 1, blob: 'x'.repeat(10_000) });
    const t = await next(it, (e) => e.tag === 'big/trim');
    expect(t.data).toMatchObject({ keep: 1, blob: 'VALUE_TRIMMED' });
    expect((await next(it, (e) => e.tag === 'tsalt/bus/trimmed')).data).toMatchObject({
      tag: 'big/trim',
      reason: 'too-large',
      max_event_size: 4096,
    });
    firer.fireRaw(encodeEventBody(`big/${'t'.repeat(5000)}`, {}));
    const d = await next(it, (e) => e.tag === 'tsalt/bus/dropped');
    expect(d.data).toMatchObject({ reason: 'tag-too-large', max_event_size: 4096 });
    expect(Number(d.data.size)).toBeGreaterThan(5000);
    firer.fire('after', {});
    expect((await next(it, (e) => e.tag === 'after')).tag).toBe('after');
    l.close();
    expect(
      warned.some((m) => /dropped event big\/t+\.\.\.: \d+ bytes is over max_event_size 4096/.test(m)),
    ).toBe(true);
  });

  it('a slow subscriber loses events for itself only, knows how many, and the publisher hears of it', async () => {
    const slow = new EventListener(addrs, ['load/'], { hwm: 100, name: 'slow-one' });
    const fast = new EventListener(addrs, ['load/']);
    await slow.ready();
    await fast.ready();
    const fastIt = fast[Symbol.asyncIterator]();
    const n = 30_000;
    let got = 0;
    const reading = (async () => {
      while (got < n) {
        const r = await Promise.race([
          fastIt.next(),
          new Promise<{ done: true; value: undefined }>((res) =>
            setTimeout(() => res({ done: true, value: undefined }), 10_000),
          ),
        ]);
        if (r.done) break;
        if (r.value.tag.startsWith('load/')) got++;
      }
      return got;
    })();
    // in bursts the fast one keeps up with: the publisher shares this thread with the
    // listeners here, and would outrun even the fast one if every event were fired at once
    for (let i = 0; i < n; i++) {
      firer.fire('load/x', { i, pad: 'p'.repeat(100) });
      if (i % 1000 === 999) while (got < i - 1000) await new Promise((r) => setTimeout(r, 1));
    }
    expect(await reading).toBe(n);
    expect(fast.stats.missed).toBe(0);
    // now the slow one reads what it holds; events fired once its queue has room reach it
    const slowIt = slow[Symbol.asyncIterator]();
    let lasts = 0;
    const poke = setInterval(() => {
      lasts++;
      firer.fire('load/last', {});
    }, 100);
    try {
      await next(slowIt, (e) => e.tag === 'load/last', 20_000);
    } finally {
      clearInterval(poke);
    }
    expect(slow.stats.missed).toBeGreaterThan(0);
    expect(slow.stats.received + slow.stats.missed).toBeGreaterThanOrEqual(n + 1);
    expect(slow.stats.received + slow.stats.missed).toBeLessThanOrEqual(n + lasts);
    expect(lasts).toBeGreaterThan(0);
    let stats = await requestBusStats(addrs);
    // the lag report travels on its own socket: it may come after the stats request
    for (
      let i = 0;
      i < 50 && stats.lagging.find((s) => s.name === 'slow-one')?.missed !== slow.stats.missed;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 100));
      stats = await requestBusStats(addrs);
    }
    const entry = stats.lagging.find((s) => s.name === 'slow-one');
    expect(entry).toMatchObject({ pid: process.pid, reason: 'subscriber-queue-full' });
    expect(entry?.missed).toBe(slow.stats.missed);
    expect(stats.subscriptions).toContainEqual(expect.objectContaining({ prefix: 'load/', subscribers: 2 }));
    expect(stats.events_in).toBeGreaterThan(n);
    slow.close();
    fast.close();
  });

  it('ready() waits for its probe while other events flow, and the probes stay out of the stream', async () => {
    const l = new EventListener(addrs, ['flow/']);
    const flowing = setInterval(() => firer.fire('flow/x', {}), 1);
    try {
      await l.ready();
    } finally {
      clearInterval(flowing);
    }
    const it = l[Symbol.asyncIterator]();
    firer.fire('flow/end', {});
    const seen = await next(it, (e) => e.tag === 'flow/end' || e.tag.startsWith('tsalt/probe/'));
    expect(seen.tag).toBe('flow/end');
    l.close();
  });

  it('ready() rejects when no bus answers, and at once when the listener is closed meanwhile', async () => {
    const none = masterEventAddresses(join(dir, 'nobody'));
    const l = new EventListener(none, ['x/']);
    const started = Date.now();
    await expect(l.ready(150)).rejects.toThrow(/did not answer/);
    expect(Date.now() - started).toBeLessThan(1000);
    l.close();
    const c = new EventListener(none, ['x/']);
    const waiting = c.ready(10_000);
    setTimeout(() => c.close(), 20);
    const closedAt = Date.now();
    await expect(waiting).rejects.toThrow();
    expect(Date.now() - closedAt).toBeLessThan(2000);
  });
});
