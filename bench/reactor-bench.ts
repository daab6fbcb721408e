/**
 * Reactor latency (issue 7): from an event fired on the master bus to the job the reactor
 * started for it. A real master with one minion (tools/local-cluster.ts) and a reaction file
 * that renders `data` into a `local.test.ping`; each event is fired only after the previous
 * one's job started. Two figures per event: until the reactor's `salt/reactor/<id>/start`
 * trace (matched, rendered, published and the master answered with the jid) and until the
 * master's `salt/job/<jid>/new` for that job. Function for bench/run.ts; standalone:
 * `node dist/bench/reactor-bench.js [events=200]`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EventFirer, EventListener, masterEventAddresses } from '../kernel/bus/event-bus.js';
import type { SaltEvent } from '../kernel/jobs/types.js';
import { Cluster } from '../tools/local-cluster.js';

export interface ReactorLatency {
  events: number;
  /** Milliseconds from the fired event to the reactor's `start` trace. */
  startP50: number;
  startP95: number;
  startMean: number;
  /** Milliseconds from the fired event to the master's `salt/job/<jid>/new`. */
  jobP50: number;
  jobP95: number;
  /** Milliseconds the reactor itself spent (event received → job started), median. */
  reactorP50: number;
  /** Events that led to no started job within 10 s. */
  lost: number;
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

const round = (n: number) => Math.round(n * 100) / 100;

export async function reactorBench(
  opts: { events?: number; log?: (line: string) => void } = {},
): Promise<ReactorLatency> {
  const count = opts.events ?? 200;
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master, minion: {}, quiet: true });
  const dir = join(c.root, 'reactor');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'ping.sls'),
    `ping_{{ data.n }}:
  local.test.ping:
    - tgt: {{ data.target }}
`,
  );
  Object.assign(master, { reactor: [{ 'bench/react/*': [join(dir, 'ping.sls')] }], reactor_loop_burst: 0 });
  const startMs: number[] = [];
  const jobMs: number[] = [];
  const inReactor: number[] = [];
  let lost = 0;
  let listener: EventListener | undefined;
  let firer: EventFirer | undefined;
  try {
    await c.startMaster();
    await c.master!.waitFor('reactor started');
    await c.startMinion('m1');
    const addrs = masterEventAddresses(join(c.root, 'var/run/salt/master'));
    listener = new EventListener(addrs, ['salt/reactor/', 'salt/job/']);
    await listener.ready();
    const it = listener[Symbol.asyncIterator]();
    firer = new EventFirer(addrs);
    const next = async (until: number): Promise<SaltEvent | undefined> => {
      const timer = new Promise<undefined>((r) =>
        setTimeout(() => r(undefined), Math.max(0, until - Date.now())),
      );
      const got = await Promise.race([it.next().then((r) => (r.done ? undefined : r.value)), timer]);
      return got;
    };
    for (let n = 0; n < count; n++) {
      const t0 = performance.now();
      firer.fire(`bench/react/${n}`, { n, target: 'm1' });
      const deadline = Date.now() + 10_000;
      let jid: string | undefined;
      // the master fires salt/job/<jid>/new before it answers the reactor: it may come first
      const created = new Map<string, number>();
      while (Date.now() < deadline) {
        const ev = await next(deadline);
        if (!ev) break;
        const m = /^salt\/job\/(\d+)\/new$/.exec(ev.tag);
        if (m) created.set(m[1] as string, performance.now() - t0);
        if (!jid && ev.tag.endsWith('/start') && ev.data.reaction === `ping_${n}`) {
          jid = String(ev.data.jid);
          startMs.push(performance.now() - t0);
          inReactor.push(Number(ev.data.elapsed_ms));
        }
        const newAt = jid ? created.get(jid) : undefined;
        if (newAt !== undefined) {
          jobMs.push(newAt);
          break;
        }
      }
      if (!jid) lost++;
    }
  } finally {
    listener?.close();
    await firer?.close();
    await c.stop();
  }
  const s = [...startMs].sort((a, b) => a - b);
  const j = [...jobMs].sort((a, b) => a - b);
  const result: ReactorLatency = {
    events: count,
    startP50: round(pct(s, 50)),
    startP95: round(pct(s, 95)),
    startMean: round(s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)),
    jobP50: round(pct(j, 50)),
    reactorP50: round(
      pct(
        [...inReactor].sort((a, b) => a - b),
        50,
      ),
    ),
    jobP95: round(pct(j, 95)),
    lost,
  };
  opts.log?.(
    `reactor latency over ${count} events: start trace p50 ${result.startP50} ms, p95 ${result.startP95} ms; job new p50 ${result.jobP50} ms, p95 ${result.jobP95} ms; inside the reactor p50 ${result.reactorP50} ms; lost ${lost}`,
  );
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const events = Number(process.argv[2] ?? 200);
  const r = await reactorBench({ events, log: (l) => console.log(l) });
  console.log(JSON.stringify(r, null, 2));
}
