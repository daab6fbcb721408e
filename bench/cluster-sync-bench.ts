/**
 * The cost of the cluster's sync round on the files side (issue 24), by hand: a master's cachedir
 * with `count` session keys (`sessions/<id>`) and `count` minion data files
 * (`minions/<id>/data.p`), a private PostgreSQL as the store. The session and data parts of a
 * round (secret-sync.ts, data-sync.ts), first as they were (a stat of every file each round), then
 * with the folders watched (folder-changes.ts): wall time and this process's CPU per round, for
 * idle rounds and for rounds where `changed` sessions were written since the last one.
 * `node dist/bench/cluster-sync-bench.js --count 5000 --rounds 20 --changed 10`
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ClusterStore } from '../plugins/cluster/cluster-store.js';
import { DataSync } from '../plugins/cluster/data-sync.js';
import { FolderChanges } from '../plugins/cluster/folder-changes.js';
import { SecretSync } from '../plugins/cluster/secret-sync.js';
import { postgresOptions } from '../returners/postgres/options.js';
import { startPostgres } from '../tools/db-servers.js';

const id = (i: number) => `m-${String(i).padStart(6, '0')}`;

function fill(cachedir: string, count: number): void {
  mkdirSync(join(cachedir, 'sessions'), { recursive: true });
  for (let i = 0; i < count; i++) {
    writeFileSync(join(cachedir, 'sessions', id(i)), randomBytes(32).toString('base64'));
    mkdirSync(join(cachedir, 'minions', id(i)), { recursive: true });
    writeFileSync(join(cachedir, 'minions', id(i), 'data.p'), randomBytes(200));
  }
}

/** Mean wall ms and CPU ms of `rounds` rounds of `round`, with `before` run ahead of each. */
async function measure(
  rounds: number,
  round: () => Promise<unknown>,
  before: (k: number) => void,
): Promise<{ wallMs: number; cpuMs: number }> {
  let wall = 0;
  let cpu = 0;
  for (let k = 0; k < rounds; k++) {
    before(k);
    // the watch's events arrive before the round, as they do between two rounds a second apart
    await new Promise((r) => setTimeout(r, 50));
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await round();
    wall += performance.now() - t0;
    const c = process.cpuUsage(c0);
    cpu += (c.user + c.system) / 1000;
  }
  return { wallMs: wall / rounds, cpuMs: cpu / rounds };
}

async function main(count: number, rounds: number, changed: number): Promise<string> {
  const server = await startPostgres();
  const cachedir = mkdtempSync(join(tmpdir(), 'tsalt-sync-bench-'));
  const lines = [`${count} sessions and ${count} minion data files, ${rounds} rounds each`];
  try {
    await server.createDatabase('sync');
    fill(cachedir, count);
    const store = new ClusterStore(
      postgresOptions.parse({ host: server.host, port: server.port, user: server.user, db: 'sync' }),
      'bench',
      () => undefined,
    );
    const key = randomBytes(32);
    let written = 0;
    const touch = () => {
      for (let j = 0; j < changed; j++)
        writeFileSync(join(cachedir, 'sessions', id(written++ % count)), randomBytes(32).toString('base64'));
    };
    for (const watched of [false, true]) {
      const sessions = watched
        ? new FolderChanges(join(cachedir, 'sessions'), { depth: 1, fullEveryMs: 60_000 })
        : undefined;
      const minions = watched
        ? new FolderChanges(join(cachedir, 'minions'), { depth: 2, fullEveryMs: 60_000 })
        : undefined;
      const secrets = new SecretSync({
        cachedir,
        store,
        origin: `bench-${watched}`,
        cluster: 'bench',
        key,
        onAesAdopted: () => undefined,
        onRefused: () => undefined,
        ...(sessions ? { sessionChanges: sessions } : {}),
      });
      const data = new DataSync(cachedir, store, `bench-${watched}`, minions);
      const round = async () => {
        await secrets.round();
        await data.round();
      };
      // the first round records every file (and starts the watches)
      const t0 = performance.now();
      await round();
      const first = performance.now() - t0;
      const idle = await measure(rounds, round, () => undefined);
      const busy = await measure(rounds, round, touch);
      lines.push(
        `  ${watched ? 'watched folders' : 'stat of every file'}: first round ${first.toFixed(0)} ms; idle round ${idle.wallMs.toFixed(1)} ms, CPU ${idle.cpuMs.toFixed(1)} ms; round after ${changed} new session keys ${busy.wallMs.toFixed(1)} ms, CPU ${busy.cpuMs.toFixed(1)} ms`,
      );
      sessions?.close();
      minions?.close();
    }
    await store.close();
    return lines.join('\n');
  } finally {
    rmSync(cachedir, { recursive: true, force: true });
    await server.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string, def: number) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : def;
  };
  console.log(await main(arg('--count', 5000), arg('--rounds', 20), arg('--changed', 10)));
}
