import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { WriteQueue } from './write-queue.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-wq-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function queueOn(
  name: string,
  busyTimeoutMs?: number,
): { db: Database.Database; queue: WriteQueue; commits: () => number; path: string } {
  const path = join(root, name);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (v INTEGER UNIQUE)');
  let commits = 0;
  const queue = new WriteQueue(
    {
      db: () => {
        commits++;
        return db;
      },
    },
    path,
    busyTimeoutMs,
  );
  return { db, queue, commits: () => commits, path };
}

/** How late a 10 ms timer fires while `during` runs: large if the thread is blocked. */
async function timerLateness(during: Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, 10));
  const late = performance.now() - t0 - 10;
  await during;
  return late;
}

describe('WriteQueue', () => {
  it('commits the writes of one turn together, after the turn', async () => {
    const { db, queue, commits } = queueOn('turn.db');
    const done = [1, 2, 3].map((v) => queue.run((d) => d.prepare('INSERT INTO t VALUES (?)').run(v)));
    expect(commits()).toBe(0);
    await Promise.all(done);
    expect(commits()).toBe(1);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 3 });
  });

  it('commits at once once hundreds are queued, so a long turn does not hold every write', async () => {
    const { db, queue, commits } = queueOn('long.db');
    const settled: number[] = [];
    const done = Array.from({ length: 600 }, (_, v) =>
      queue.run((d) => d.prepare('INSERT INTO t VALUES (?)').run(v)).then(() => settled.push(v)),
    );
    // still inside the turn that queued them: two batches of 256 are in the file already
    expect(commits()).toBe(2);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 512 });
    await Promise.resolve();
    expect(settled.length).toBe(512);
    await Promise.all(done);
    expect(commits()).toBe(3);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 600 });
  });

  it('fails only the write that fails', async () => {
    const { queue } = queueOn('fail.db');
    const ok = queue.run((d) => d.prepare('INSERT INTO t VALUES (?)').run(1));
    const dup = queue.run((d) => d.prepare('INSERT INTO t VALUES (?)').run(1));
    await expect(ok).resolves.toBeDefined();
    await expect(dup).rejects.toThrow();
  });

  it("waits for another process's write lock without blocking its thread, and keeps the order", async () => {
    const { db, queue, path } = queueOn('locked.db', 5000);
    const other = new Database(path);
    other.prepare('BEGIN IMMEDIATE').run();
    const first = [1, 2].map((v) => queue.run((d) => d.prepare('INSERT INTO t VALUES (?)').run(v)));
    // the timer fires on time while the writes wait (SQLite's own wait would hold the thread)
    const release = new Promise((r) => setTimeout(r, 200)).then(() => other.prepare('COMMIT').run());
    expect(await timerLateness(new Promise((r) => setTimeout(r, 50)))).toBeLessThan(100);
    // queued while the first two still wait: it goes in after them
    const later = queue.run((d) => d.prepare('INSERT INTO t VALUES (?)').run(3));
    await release;
    await Promise.all([...first, later]);
    expect(db.prepare('SELECT v FROM t ORDER BY rowid').all()).toEqual([{ v: 1 }, { v: 2 }, { v: 3 }]);
    other.close();
  });

  it('fails the waiting writes once busy_timeout has passed, then writes again', async () => {
    const { db, queue, path } = queueOn('stuck.db', 150);
    const other = new Database(path);
    other.prepare('BEGIN IMMEDIATE').run();
    const t0 = performance.now();
    const stuck = queue.run((d) => d.prepare('INSERT INTO t VALUES (?)').run(1));
    await expect(stuck).rejects.toMatchObject({ code: 'SALT_ERR_JOB_STORE' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    other.prepare('ROLLBACK').run();
    // a later wait for the lock gets its own busy_timeout, not what is left of the first one's
    other.prepare('BEGIN IMMEDIATE').run();
    const second = queue.run((d) => d.prepare('INSERT INTO t VALUES (?)').run(2));
    await new Promise((r) => setTimeout(r, 60));
    other.prepare('ROLLBACK').run();
    other.close();
    await second;
    expect(db.prepare('SELECT v FROM t').all()).toEqual([{ v: 2 }]);
  });
});
