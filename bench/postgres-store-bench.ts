/**
 * The `postgres` job store at fleet scale, as bench/job-store-bench.ts measures the embedded
 * store: N returns (jobs of 10 minions) written through the returner into a private PostgreSQL
 * (Debian's package, started on a free loopback port, fsync off) or a server you name, then
 * `jobs.list_jobs` and `jobs.lookup_jid` latency at that size (min/median/max), table size,
 * and removal of every job.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/postgres-store-bench.js [--quick] [--returns N] [--json]
 *
 * `--quick` writes 100,000 returns instead of 1,000,000. With TSALT_BENCH_PG=host:port:user:db
 * it uses that server (the tables are made in that database; use an empty one).
 */
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { JobQuery, ReturnerDef } from '../kernel/jobs/returner.js';
import { returnerContext } from '../kernel/jobs/returner-options.js';
import { silentLogger } from '../kernel/log.js';
import { createPostgresReturner } from '../returners/postgres/index.js';
import type { PostgresOptions } from '../returners/postgres/options.js';
import { startPostgres } from '../tools/db-servers.js';
import { type LatencyStats, MINIONS_PER_JOB, timeRuns, writeAll } from './store-workload.js';

/** Milliseconds over repeated calls. */
export type PgLatency = LatencyStats;

export interface PostgresBenchResult {
  store: 'postgres';
  server: string;
  returns: number;
  jobs: number;
  minionsPerJob: number;
  writeSeconds: number;
  returnsPerSecond: number;
  /** Tables and indexes (pg_total_relation_size), bytes. */
  tableBytes: number;
  lookupJid: PgLatency;
  listByFunction: PgLatency;
  listNewest100: PgLatency;
  listByTarget: PgLatency;
  listAll: PgLatency;
  cleanSeconds: number;
}

export interface PostgresBenchOptions {
  /** Returns to write (default 1,000,000; 100,000 with `quick`). */
  returns?: number;
  quick?: boolean;
  /** Repeats of each latency measurement (default 20). */
  runs?: number;
  /** A server to use instead of a private one. */
  server?: { host: string; port: number; user: string; db: string; pass?: string };
  print?: (line: string) => void;
}

type Def = ReturnerDef<PostgresOptions>;

const QUERIES: Record<'listByFunction' | 'listNewest100' | 'listByTarget', JobQuery> = {
  listByFunction: { searchFunction: 'pkg.up*' },
  listNewest100: { limit: 100 },
  listByTarget: { searchTarget: 'web0042', limit: 100 },
};

const fmt = (t: PgLatency) => `${t.median.toFixed(2)} ms [${t.min.toFixed(2)}–${t.max.toFixed(2)}]`;

/** Prints the figures as a table. */
export function printPostgresTable(r: PostgresBenchResult, print: (line: string) => void): void {
  const row = (label: string, value: string) => print(`${label.padEnd(48)}${value.padStart(34)}`);
  print('');
  row(`postgres job store, ${r.returns.toLocaleString('en-US')} returns`, r.server);
  row('write time (s)', r.writeSeconds.toFixed(1));
  row('returns/s', r.returnsPerSecond.toFixed(0));
  row('tables + indexes (MiB)', (r.tableBytes / 1024 / 1024).toFixed(1));
  row('lookup_jid: getJid+getLoad (median [min–max])', fmt(r.lookupJid));
  row('list_jobs search_function=pkg.up* (~0.1%)', fmt(r.listByFunction));
  row('list_jobs newest 100', fmt(r.listNewest100));
  row('list_jobs search_target=web0042, 100', fmt(r.listByTarget));
  row('list_jobs everything (get_jids)', fmt(r.listAll));
  row('remove every job (s)', r.cleanSeconds.toFixed(1));
}

/** Runs the benchmark and prints its table; returns the figures (JSON-able). */
export async function postgresStoreBench(options: PostgresBenchOptions = {}): Promise<PostgresBenchResult> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const returns = options.returns ?? (options.quick ? 100_000 : 1_000_000);
  const runs = options.runs ?? 20;
  const own = options.server ? undefined : await startPostgres();
  const server = options.server ?? {
    host: own?.host ?? '127.0.0.1',
    port: own?.port ?? 5432,
    user: own?.user ?? 'salt',
    db: own?.db ?? 'salt',
    pass: own?.password,
  };
  const def = createPostgresReturner();
  const ctx = returnerContext(def, { id: 'bench', postgres: { ...server, pool_size: 8 } }, silentLogger());
  try {
    const jobs = Math.ceil(returns / MINIONS_PER_JOB);
    print(`  postgres: writing ${jobs * MINIONS_PER_JOB} returns (${jobs} jobs of ${MINIONS_PER_JOB}) ...`);
    const jids: string[] = new Array(jobs);
    const t0 = process.hrtime.bigint();
    await writeAll(def, ctx, jobs, jids, (n) => print(`    ${n.toLocaleString('en-US')} returns`));
    const writeSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const admin = new pg.Client({
      host: server.host,
      port: server.port,
      user: server.user,
      database: server.db,
      password: server.pass,
    });
    await admin.connect();
    await admin.query('ANALYZE');
    const size = await admin.query<{ n: string }>(
      `SELECT sum(pg_total_relation_size(c)) AS n FROM unnest(ARRAY['jids', 'salt_returns', 'salt_events', 'salt_end_states']::regclass[]) c`,
    );
    await admin.end();
    const pick = (i: number) => jids[Math.floor(((i + 1) * 7919 * 104729) % jobs)] as string;
    const lookupJid = await timeRuns(runs * 5, async (i) => {
      const jid = pick(i);
      await def.getJid?.(jid, ctx);
      await def.getLoad?.(jid, ctx);
    });
    const list = def.listJobs as NonNullable<Def['listJobs']>;
    const listByFunction = await timeRuns(runs, () => list(QUERIES.listByFunction, ctx));
    const listNewest100 = await timeRuns(runs, () => list(QUERIES.listNewest100, ctx));
    const listByTarget = await timeRuns(runs, () => list(QUERIES.listByTarget, ctx));
    const listAll = await timeRuns(Math.min(runs, 3), () =>
      (def.getJids as NonNullable<Def['getJids']>)(ctx),
    );
    print('  postgres: removing every job ...');
    const c0 = process.hrtime.bigint();
    await def.cleanOldJobs?.(0, ctx);
    const cleanSeconds = Number(process.hrtime.bigint() - c0) / 1e9;
    const result: PostgresBenchResult = {
      store: 'postgres',
      server: own ? 'private PostgreSQL, fsync off' : `${server.host}:${server.port}`,
      returns: jobs * MINIONS_PER_JOB,
      jobs,
      minionsPerJob: MINIONS_PER_JOB,
      writeSeconds,
      returnsPerSecond: (jobs * MINIONS_PER_JOB) / writeSeconds,
      tableBytes: Number(size.rows[0]?.n ?? 0),
      lookupJid,
      listByFunction,
      listNewest100,
      listByTarget,
      listAll,
      cleanSeconds,
    };
    printPostgresTable(result, print);
    return result;
  } finally {
    await def.close?.(ctx);
    await own?.destroy();
  }
}

// Run alone: node dist/bench/postgres-store-bench.js [--quick] [--returns N] [--json]
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const arg = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const named = process.env.TSALT_BENCH_PG?.split(':');
  const result = await postgresStoreBench({
    quick: argv.includes('--quick'),
    returns: arg('--returns') ? Number(arg('--returns')) : undefined,
    server:
      named && named.length >= 4
        ? {
            host: named[0] as string,
            port: Number(named[1]),
            user: named[2] as string,
            db: named[3] as string,
            pass: process.env.PGPASSWORD,
          }
        : undefined,
  });
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
