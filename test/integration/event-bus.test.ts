import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestBusStats } from '../../kernel/bus/bus-client.js';
import {
  type EventBusAddresses,
  EventFirer,
  EventListener,
  masterEventAddresses,
} from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { encodeEventBody } from '../../kernel/serial/index.js';
import { Cluster } from '../../tools/local-cluster.js';

describe('the master event bus: max_event_size, slow subscribers, counters', () => {
  const c = new Cluster({ master: { max_event_size: 65536 } });
  let addrs: EventBusAddresses;
  let events: EventListener;
  let firer: EventFirer;
  const seen: SaltEvent[] = [];

  async function waitFor(pred: (e: SaltEvent) => boolean, ms = 15_000): Promise<SaltEvent> {
    const deadline = Date.now() + ms;
    for (;;) {
      const hit = seen.find(pred);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error('event not seen');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('m1');
    addrs = masterEventAddresses(join(c.root, 'var/run/salt/master'));
    events = new EventListener(addrs, ['tsalt/bus/', 'myco/'], { name: 'test-trace' });
    await events.ready();
    void (async () => {
      for await (const e of events) seen.push(e);
    })();
    firer = new EventFirer(addrs);
  }, 120_000);

  afterAll(async () => {
    events?.close();
    await firer?.close();
    await c.stop();
  });

  it('an event over max_event_size is trimmed or dropped, with a trace event and a log line; the master keeps serving', async () => {
    // from a minion: event.send with a 100 KB value is trimmed as Salt does
    const big = 'x'.repeat(100_000);
    const r = await c.saltJson(['m1', 'event.send', 'myco/big', `blob=${big}`]);
    expect(r.data).toEqual({ m1: true });
    const ev = await waitFor((e) => e.tag === 'myco/big');
    expect((ev.data.data as Record<string, unknown>).blob).toBe('VALUE_TRIMMED');
    expect(
      (await waitFor((e) => e.tag === 'tsalt/bus/trimmed' && e.data.tag === 'myco/big')).data,
    ).toMatchObject({
      reason: 'too-large',
      max_event_size: 65536,
    });
    // a tag alone over the limit cannot be trimmed: dropped
    firer.fireRaw(encodeEventBody(`myco/${'t'.repeat(70_000)}`, {}));
    const d = await waitFor((e) => e.tag === 'tsalt/bus/dropped' && e.data.reason === 'tag-too-large');
    expect(Number(d.data.size)).toBeGreaterThan(70_000);
    // data that is not a map never reaches the bus
    firer.fire('myco/list', [1, 2] as unknown as Record<string, unknown>);
    await waitFor(
      (e) => e.tag === 'tsalt/bus/dropped' && e.data.tag === 'myco/list' && e.data.reason === 'not-a-map',
    );
    expect(seen.some((e) => e.tag === 'myco/list')).toBe(false);
    await c.master!.waitFor(
      /event bus: dropped event myco\/t+\.\.\.: \d+ bytes is over max_event_size 65536/,
    );
    await c.master!.waitFor('event bus: trimmed large values of event myco/big');
    await c.master!.waitFor('event bus: dropped event myco/list: its data is not a map');
    expect((await c.saltJson(['m1', 'test.ping'])).data).toEqual({ m1: true });
  });

  it('a subscriber that stops reading does not hold up the master or the others; its losses are counted', async () => {
    const n = 50_000;
    const slow = new EventListener(addrs, ['load/'], { hwm: 1000, name: 'slow-sub' });
    const fast = new EventListener(addrs, ['load/'], { name: 'fast-sub' });
    await slow.ready();
    await fast.ready();
    const before = await requestBusStats(addrs);
    let fastGot = 0;
    const fastDone = (async () => {
      for await (const e of fast) if (e.tag.startsWith('load/') && ++fastGot >= n) return;
    })();
    const t0 = Date.now();
    // the fast one shares this thread with the firing: fire in bursts it can keep up with
    // (the publisher holds 50,000 events for a subscriber whose process falls behind)
    for (let i = 0; i < n; i++) {
      firer.fire('load/x', { i, pad: 'p'.repeat(200) });
      if (i % 1000 === 999) while (fastGot < i - 2000) await new Promise((r) => setTimeout(r, 1));
    }
    // the master answers while the slow one holds its queue full
    expect((await c.saltJson(['m1', 'test.ping'])).data).toEqual({ m1: true });
    await Promise.race([fastDone, new Promise((r) => setTimeout(r, 60_000))]);
    expect(fastGot).toBe(n);
    expect(fast.stats.missed).toBe(0);
    const during = await requestBusStats(addrs);
    const elapsed = Date.now() - t0;
    // the publisher holds at most its per-subscriber bound for the slow one: memory stays bounded
    expect(during.pid).toBe(before.pid);
    expect(during.rss - before.rss).toBeLessThan(128 * 1024 * 1024);
    // the slow one reads again: it knows what it missed, and says so on the bus
    const slowIt = slow[Symbol.asyncIterator]();
    const poke = setInterval(() => firer.fire('load/last', {}), 100);
    try {
      for (;;) {
        const r = await slowIt.next();
        if (r.done || r.value.tag === 'load/last') break;
      }
    } finally {
      clearInterval(poke);
    }
    expect(slow.stats.missed).toBeGreaterThan(0);
    expect(slow.stats.received + slow.stats.missed).toBeGreaterThanOrEqual(n + 1);
    const lag = await waitFor((e) => e.tag === 'tsalt/bus/lag' && e.data.name === 'slow-sub');
    expect(lag.data).toMatchObject({
      pid: process.pid,
      reason: 'subscriber-queue-full',
      prefixes: ['load/'],
    });
    // and salt-run bus.stats shows it
    let stats: Record<string, unknown> = {};
    for (let i = 0; i < 30; i++) {
      const r = await c.saltRun(['--out', 'json', 'bus.stats']);
      expect(r.code).toBe(0);
      stats = JSON.parse(r.stdout) as Record<string, unknown>;
      const lagging = stats.lagging as Array<{ name: string; missed: number }>;
      if (lagging.find((s) => s.name === 'slow-sub')?.missed === slow.stats.missed) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const entry = (stats.lagging as Array<{ name: string; missed: number }>).find(
      (s) => s.name === 'slow-sub',
    );
    expect(entry?.missed).toBe(slow.stats.missed);
    expect(stats.events_in as number).toBeGreaterThan(n);
    expect(stats.max_event_size).toBe(65536);
    expect((stats.dropped as Record<string, number>)['tag-too-large']).toBe(1);
    console.log(
      `event bus: ${n} events in ${elapsed} ms with a stalled subscriber; publisher RSS ${before.rss >> 20} → ${during.rss >> 20} MiB; slow missed ${slow.stats.missed}`,
    );
    slow.close();
    fast.close();
  }, 180_000);
});
