/**
 * netapi figures: requests/s and p99 latency of `POST /` with `local_async` and with `local`
 * test.ping, at several concurrency levels, against a small local cluster. Standalone:
 * `node dist/bench/netapi-bench.js [minions] [concurrency,...]` (after a build).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '../kernel/process/ports.js';
import { Cluster } from '../tools/local-cluster.js';

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

/** Starts a cluster with `minions` minions and netapi, measures, stops it. */
export async function runNetapiBench(
  opts: { minions?: number; concurrency?: number[]; requestsPerLevel?: number } = {},
): Promise<NetapiFigure[]> {
  const minions = opts.minions ?? 10;
  const levels = opts.concurrency ?? [1, 50, 500];
  const port = await freePort();
  const c = new Cluster({
    quiet: true,
    master: {
      rest_cherrypy: { port, host: '127.0.0.1', disable_ssl: true, rate_limit: 0 },
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
    for (let i = 0; i < minions; i++) await c.startMinion(`bench${i}`);
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      try {
        await fetch(`${base}/`);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench', eauth: 'file' }),
    });
    const token = ((await login.json()) as { return: [{ token: string }] }).return[0].token;
    for (const client of ['local_async', 'local'] as const) {
      for (const n of levels) {
        const total = opts.requestsPerLevel ?? Math.max(50, n * 4);
        out.push(await load(base, token, client, n, total));
      }
    }
  } finally {
    await c.stop();
  }
  return out;
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
