/**
 * Issue 7's event-bus figures, on a real master's bus: events/s delivered to 1 and to 100
 * subscribers, and the event publisher's memory while one subscriber stops reading for a full
 * minute (30 s with --quick): before, during, after, and how the bus treated it.
 * Run alone: `npx tsx bench/event-bus-bench.ts [--quick]` (or through bench/run.ts).
 */
import { join } from 'node:path';
import { requestBusStats } from '../kernel/bus/bus-client.js';
import {
  type EventBusAddresses,
  EventFirer,
  EventListener,
  masterEventAddresses,
} from '../kernel/bus/event-bus.js';
import { Cluster } from '../tools/local-cluster.js';

export interface EventBusBenchResult {
  /** Events/s fired and fully delivered with one subscriber, and with 100. */
  throughput: Array<{
    subscribers: number;
    events: number;
    seconds: number;
    eventsPerSec: number;
    missed: number;
  }>;
  stall: {
    seconds: number;
    fired: number;
    /** Event publisher RSS (MiB): before, sampled every 5 s while stalled, the highest, after. */
    rssBeforeMiB: number;
    rssDuringMiB: number[];
    rssMaxMiB: number;
    /** Once the stalled subscriber read again and caught up. */
    rssEndMiB: number;
    /** After it disconnected and the bus stayed idle 2 s. */
    rssAfterMiB: number;
    /** RSS change over the second half of the stall: near 0 when memory is bounded. */
    rssGrowthLastHalfMiB: number;
    /** Events the reading subscriber missed (expected 0) and the stalled one missed. */
    fastMissed: number;
    stalledMissed: number;
    /**
     * How the bus treated the stalled subscriber: its events were dropped for it alone (the
     * subscriber stays connected) and the publisher recorded its lag report with this reason.
     */
    stalledDropped: { reported: boolean; reason: string | null; missed: number };
    /** The publisher's own backlog (frames waiting for its socket): highest seen. */
    backlogMax: number;
    subscriberHwm: number;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MiB = (b: number) => Math.round((b / 1048576) * 10) / 10;

/** Fires `events` events and waits until every subscriber got each one or knows it missed it. */
async function throughput(
  addrs: EventBusAddresses,
  subscribers: number,
  events: number,
): Promise<EventBusBenchResult['throughput'][number]> {
  const listeners = Array.from(
    { length: subscribers },
    (_, i) => new EventListener(addrs, ['bench/'], { name: `bench-${i}`, reportLag: false }),
  );
  await Promise.all(listeners.map((l) => l.ready(20_000)));
  const firer = new EventFirer(addrs);
  const done = listeners.map(async (l) => {
    for await (const e of l) if (e.tag === 'bench/end' || l.stats.received + l.stats.missed >= events) break;
  });
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < events; i++) {
    firer.fire('bench/x', { i, fun: 'test.ping', id: 'minion', return: true });
    if (i % 2000 === 1999) await new Promise((r) => setImmediate(r));
  }
  await Promise.race([Promise.all(done), sleep(120_000)]);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const missed = listeners.reduce((s, l) => s + l.stats.missed, 0);
  for (const l of listeners) l.close();
  await firer.close();
  return { subscribers, events, seconds, eventsPerSec: events / seconds, missed };
}

/** A steady stream for `seconds` while one subscriber never reads and one reads everything. */
async function stall(
  addrs: EventBusAddresses,
  seconds: number,
  rate: number,
): Promise<EventBusBenchResult['stall']> {
  const stalled = new EventListener(addrs, ['stall/'], { name: 'stalled', hwm: 1000 });
  const fast = new EventListener(addrs, ['stall/'], { name: 'reader' });
  await stalled.ready();
  await fast.ready();
  const reading = (async () => {
    for await (const _ of fast);
  })();
  const firer = new EventFirer(addrs);
  const before = await requestBusStats(addrs);
  let rssMax = before.rss;
  const during: Array<{ at: number; rss: number }> = [];
  let fired = 0;
  const pad = 'p'.repeat(300);
  const t0 = Date.now();
  let nextSample = t0 + 1000;
  while (Date.now() - t0 < seconds * 1000) {
    // `rate` events a second, in 10 ms slices
    const due = Math.floor(((Date.now() - t0) / 1000) * rate);
    while (fired < due) firer.fire('stall/x', { i: fired++, pad });
    if (Date.now() >= nextSample) {
      const rss = (await requestBusStats(addrs)).rss;
      rssMax = Math.max(rssMax, rss);
      during.push({ at: (Date.now() - t0) / 1000, rss });
      nextSample += 1000;
    }
    await sleep(10);
  }
  // the stalled one reads again: what it missed shows with the next event it gets
  const it = stalled[Symbol.asyncIterator]();
  const poke = setInterval(() => firer.fire('stall/last', {}), 100);
  for (;;) {
    const r = await it.next();
    if (r.done || r.value.tag === 'stall/last') break;
  }
  clearInterval(poke);
  // its lag report (fired when it saw the gap) reaches the publisher
  let end = await requestBusStats(addrs);
  for (let i = 0; i < 20 && !end.lagging.some((l) => l.name === 'stalled'); i++) {
    await sleep(100);
    end = await requestBusStats(addrs);
  }
  const lag = end.lagging.find((l) => l.name === 'stalled' && l.pid === process.pid);
  const fastMissed = fast.stats.missed;
  const stalledMissed = stalled.stats.missed;
  stalled.close();
  fast.close();
  await reading;
  await sleep(2000);
  const after = await requestBusStats(addrs);
  await firer.close();
  const half = during.filter((d) => d.at >= seconds / 2);
  return {
    seconds,
    fired,
    rssBeforeMiB: MiB(before.rss),
    rssDuringMiB: during.filter((_, i) => i % 5 === 4).map((d) => MiB(d.rss)),
    rssMaxMiB: MiB(Math.max(rssMax, end.rss)),
    rssEndMiB: MiB(end.rss),
    rssAfterMiB: MiB(after.rss),
    rssGrowthLastHalfMiB: MiB((half.at(-1)?.rss ?? 0) - (half[0]?.rss ?? 0)),
    fastMissed,
    stalledMissed,
    stalledDropped: { reported: lag !== undefined, reason: lag?.reason ?? null, missed: lag?.missed ?? 0 },
    backlogMax: after.backlog_max,
    subscriberHwm: end.subscriber_hwm,
  };
}

export async function eventBusBench(opts: {
  quick: boolean;
  log?: (line: string) => void;
}): Promise<EventBusBenchResult> {
  const log = opts.log ?? (() => undefined);
  const c = new Cluster({ quiet: true });
  try {
    await c.startMaster();
    const addrs = masterEventAddresses(join(c.root, 'var/run/salt/master'));
    const out: EventBusBenchResult['throughput'] = [];
    for (const [subs, events] of [
      [1, opts.quick ? 50_000 : 200_000],
      [100, opts.quick ? 5_000 : 20_000],
    ] as const) {
      const r = await throughput(addrs, subs, events);
      log(`  ${subs} subscriber(s): ${events} events in ${r.seconds.toFixed(2)} s, ${r.missed} missed`);
      out.push(r);
    }
    const s = await stall(addrs, opts.quick ? 30 : 60, 2000);
    log(
      `  stalled subscriber ${s.seconds} s: ${s.fired} events, publisher RSS ${s.rssBeforeMiB} → during [${s.rssDuringMiB.join(', ')}] (max ${s.rssMaxMiB}, last-half growth ${s.rssGrowthLastHalfMiB}) → ${s.rssEndMiB} → after ${s.rssAfterMiB} MiB; stalled one missed ${s.stalledMissed} (${s.stalledDropped.reported ? `dropped for it, reason ${s.stalledDropped.reason}` : 'no lag report'}), reader missed ${s.fastMissed}`,
    );
    return { throughput: out, stall: s };
  } finally {
    await c.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await eventBusBench({ quick: process.argv.includes('--quick'), log: console.log });
  console.log(JSON.stringify(r, null, 2));
}
