import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { WriteQueue } from './write-queue.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-wq-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function queueOn(name: string): { db: Database.Database; queue: WriteQueue; commits: () => number } {
  const path = join(root, name);
  const db = new Database(path);
  db.exec('CREATE TABLE t (v INTEGER UNIQUE)');
  let commits = 0;
  const queue = new WriteQueue(() => {
    commits++;
    return db;
  }, path);
  return { db, queue, commits: () => commits };
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
});
