/**
 * netapi figures: requests/s, p50 and p99 latency of `POST /` with `local_async` and with `local`
 * test.ping, at several concurrency levels, against a small local cluster. Standalone:
 * `node dist/bench/netapi-bench.js [minions] [concurrency,...]` (after a build).
 */
import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfigCached } from '../cli/config-cache.js';
import { EventFirer, masterEventAddresses } from '../kernel/bus/event-bus.js';
import { freePort } from '../kernel/process/ports.js';
import { Cluster } from '../tools/local-cluster.js';
import { loginToken, waitForApi } from '../tools/netapi-http.js';

/** netapi's connection caps (max_connections, per address) opened wide for a benchmark's thousands of streams. */
const BENCH_CONNECTIONS = { max_connections: 5000, max_connections_per_address: 5000 };

export interface NetapiFigure {
  client: 'local_async' | 'local';
  concurrency: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs `total` requests with `concurrency` in flight; returns the figure. */
async function load(
  base: string,
  token: string,
  client: NetapiFigure['client'],
  concurrency: number,
  total: number,
): Promise<NetapiFigure> {
  const lat: number[] = [];
  let errors = 0;
  let next = 0;
  const body = JSON.stringify({ client, tgt: '*', fun: 'test.ping' });
  const worker = async () => {
    while (next < total) {
      next++;
      const t0 = performance.now();
      try {
        const r = await fetch(`${base}/`, {
          method: 'POST',
          headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json', Accept: 'application/json' },
          body,
        });
        await r.arrayBuffer();
        if (r.status !== 200) errors++;
      } catch {
        errors++;
      }
      lat.push(performance.now() - t0);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return {
    client,
    concurrency,
    requests: lat.length,
    rps: lat.length / secs,
    p50Ms: pct(lat, 50),
    p99Ms: pct(lat, 99),
    errors,
  };
}

/** Waits for the API to answer, then logs the bench user in; resolves with its token. */
async function benchLogin(base: string): Promise<string> {
  await waitForApi(base);
  return loginToken(base, 'bench', 'bench');
}

/** Starts a cluster with `minions` minions and netapi, measures, stops it. */
export async function runNetapiBench(
  opts: {
    minions?: number;
    concurrency?: number[];
    /** Requests per level: a count, or one from the level's concurrency (default 4 per client, at least 50). */
    requestsPerLevel?: number | ((concurrency: number) => number);
  } = {},
): Promise<NetapiFigure[]> {
  const minions = opts.minions ?? 10;
  const levels = opts.concurrency ?? [1, 50, 500];
  const port = await freePort();
  const c = new Cluster({
    quiet: true,
    master: {
      // one load generator on one address: no rate limit, and room for all its connections
      rest_cherrypy: { port, host: '127.0.0.1', disable_ssl: true, rate_limit: 0, ...BENCH_CONNECTIONS },
      netapi_enable_clients: ['local', 'local_async'],
      external_auth: { file: { '^filename': '__USERS__', bench: ['.*'] } },
    },
  });
  const users = join(c.root, 'users.txt');
  writeFileSync(users, 'bench:bench\n');
  await c.writeMasterConfig();
  const { readFileSync } = await import('node:fs');
  const conf = join(c.confDir, 'master');
  writeFileSync(conf, readFileSync(conf, 'utf8').replace('__USERS__', users));
  c.writeMasterConfig = async () => undefined;
  const out: NetapiFigure[] = [];
  try {
    await c.startMaster();
    // Bounded job processes: local_async at 50+ clients queues thousands of jobs, and with
    // Salt's default (process_count_max: -1) each minion would start a process per queued job.
    for (let i = 0; i < minions; i++) await c.startMinion(`bench${i}`, { process_count_max: 4 });
    const base = `http://127.0.0.1:${port}`;
    const token = await benchLogin(base);
    // `local` first: the jobs local_async starts are still running on the minions afterwards,
    // and a `local` request measured behind that backlog would time the backlog, not the API
    for (const client of ['local', 'local_async'] as const) {
      for (const n of levels) {
        const per = opts.requestsPerLevel;
        const total = typeof per === 'function' ? per(n) : (per ?? Math.max(50, n * 4));
        out.push(await load(base, token, client, n, total));
      }
    }
  } finally {
    await c.stop();
  }
  return out;
}

export interface SseFanoutFigure {
  subscribers: number;
  /** Events fired; each one timed. */
  events: number;
  /** Median ms from firing on the master bus to arrival at the last subscriber. */
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Median ms to the first subscriber. */
  firstMedianMs: number;
  /** Events every subscriber received (must equal `events`). */
  complete: number;
  /** Subscribers connected (must equal `subscribers`). */
  connected: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** An SSE subscriber on a raw socket: notes when each `marker` first shows in its stream. */
function sseSubscriber(
  port: number,
  token: string,
  tag: string,
  onMarker: (marker: string) => void,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let tail = '';
    let ready = false;
    sock.setNoDelay(true);
    sock.on('data', (d: Buffer) => {
      const text = tail + d.toString('latin1');
      if (!ready && text.includes('retry: 400')) {
        ready = true;
        resolve(sock);
      }
      for (const m of text.matchAll(/tag: \S+\/(\d+)\n/g)) onMarker(m[1] as string);
      tail = text.slice(Math.max(0, text.lastIndexOf('\n') + 1));
    });
    sock.once('error', reject);
    sock.write(`GET /events?tag=${tag} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth-Token: ${token}\r\n\r\n`);
  });
}

/**
 * SSE fan-out: `subscribers` `/events` streams (raw sockets) on the master's netapi; events
 * fired on the master bus one at a time; for each, the time from the fire to its arrival at
 * the first and at the last subscriber. Starts a master (no minions), measures, stops it.
 */
export async function runSseFanoutBench(
  opts: { subscribers?: number; events?: number } = {},
): Promise<SseFanoutFigure> {
  const subscribers = opts.subscribers ?? 1000;
  const events = opts.events ?? 9;
  const port = await freePort();
  const master: Record<string, unknown> = {
    // one load generator on one address: no rate limit, and room for all its connections
    rest_cherrypy: { port, host: '127.0.0.1', disable_ssl: true, rate_limit: 0, ...BENCH_CONNECTIONS },
    netapi_enable_clients: ['local_async'],
  };
  const c = new Cluster({ quiet: true, master });
  // the users file lives in the cluster root, known once the cluster exists
  const users = join(c.root, 'users.txt');
  writeFileSync(users, 'bench:bench\n');
  master.external_auth = { file: { '^filename': users, bench: ['.*'] } };
  const socks: Socket[] = [];
  let firer: EventFirer | undefined;
  try {
    await c.startMaster();
    const base = `http://127.0.0.1:${port}`;
    const token = await benchLogin(base);
    const tag = 'tsalt/bench/fanout';
    // arrivals[event] = times at which subscribers saw it (one per subscriber)
    const arrivals = new Map<string, { times: number[]; done: () => void }>();
    for (let i = 0; i < subscribers; i += 100) {
      const batch = Array.from({ length: Math.min(100, subscribers - i) }, () => {
        const seen = new Set<string>();
        return sseSubscriber(port, token, tag, (marker) => {
          if (seen.has(marker)) return;
          seen.add(marker);
          const a = arrivals.get(marker);
          if (!a) return;
          a.times.push(performance.now());
          if (a.times.length === subscribers) a.done();
        });
      });
      socks.push(...(await Promise.all(batch)));
    }
    const { config } = await loadConfigCached('master', c.confDir);
    firer = new EventFirer(masterEventAddresses(config.sock_dir));
    const fireAndWait = async (marker: string): Promise<{ first: number; last: number; got: number }> => {
      const got: number[] = [];
      let timer: NodeJS.Timeout | undefined;
      const all = new Promise<void>((done) => {
        arrivals.set(marker, { times: got, done });
        timer = setTimeout(done, 30_000);
      });
      const t0 = performance.now();
      firer?.fire(`${tag}/${marker}`, { n: Number(marker) });
      await all;
      clearTimeout(timer);
      arrivals.delete(marker);
      return { first: (got[0] ?? t0) - t0, last: (got[got.length - 1] ?? t0) - t0, got: got.length };
    };
    await fireAndWait('0'); // warm-up (connects the firer), not timed
    const lasts: number[] = [];
    const firsts: number[] = [];
    let complete = 0;
    for (let e = 1; e <= events; e++) {
      const r = await fireAndWait(String(e));
      if (r.got === subscribers) complete++;
      lasts.push(r.last);
      firsts.push(r.first);
      await new Promise((res) => setTimeout(res, 50));
    }
    return {
      subscribers,
      events,
      medianMs: median(lasts),
      minMs: Math.min(...lasts),
      maxMs: Math.max(...lasts),
      firstMedianMs: median(firsts),
      complete,
      connected: socks.length,
    };
  } finally {
    for (const s of socks) s.destroy();
    await firer?.close();
    await c.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const minions = Number(process.argv[2] ?? 10);
  const levels = (process.argv[3] ?? '1,50,500').split(',').map(Number);
  const figures = await runNetapiBench({ minions, concurrency: levels });
  for (const f of figures) {
    process.stdout.write(
      `${f.client.padEnd(12)} c=${String(f.concurrency).padStart(4)}  ${f.rps.toFixed(1).padStart(8)} req/s  p50 ${f.p50Ms.toFixed(1)} ms  p99 ${f.p99Ms.toFixed(1)} ms  errors ${f.errors}\n`,
    );
  }
}
