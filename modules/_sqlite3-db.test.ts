import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SaltFloat } from '../kernel/python/index.js';
import { sqliteMessage, withDb } from './_sqlite3-db.js';

describe("Python's sqlite3 on better-sqlite3", () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-sqlite3-'));
  const db = join(dir, 'a.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("returns rows with Python's types: int, float even when whole, bytes, None, big ints exact", async () => {
    const rows = await withDb(db, (c) => {
      c.run('CREATE TABLE t(i INT, r REAL, b BLOB, n)');
      c.run("INSERT INTO t VALUES (1, 2.0, x'00ff', NULL), (9007199254740993, 0.5, x'', 'x')");
      return c.rows('SELECT * FROM t ORDER BY i');
    });
    expect(rows[0]).toEqual([1, new SaltFloat(2), new Uint8Array([0, 255]), null]);
    expect(rows[1]).toEqual([9007199254740993n, 0.5, new Uint8Array(0), 'x']);
  });

  it('counts changed rows, binds booleans as integers and runs an empty statement as nothing', async () => {
    const out = await withDb(db, (c) => ({
      changed: c.run('UPDATE t SET n = ? WHERE i > ?', [true, 0]),
      read: c.rows('SELECT n FROM t'),
      empty: c.rows('  '),
      dicts: c.dicts('SELECT i, n FROM t WHERE i = 1'),
    }));
    expect(out).toEqual({ changed: 2, read: [[1], [1]], empty: [], dicts: [{ i: 1, n: 1 }] });
  });

  it("names failures as Python's exceptions do, with SQLite's own text", async () => {
    const fail = (sql: string) =>
      withDb(db, (c) => c.rows(sql)).catch((e: Error) => [e.message, sqliteMessage(e)]);
    expect(await fail('SELECT * FROM nope')).toEqual([
      'OperationalError: no such table: nope',
      'no such table: nope',
    ]);
    expect(await fail('SELECT 1; SELECT 2')).toEqual([
      'ProgrammingError: You can only execute one statement at a time.',
      'You can only execute one statement at a time.',
    ]);
    await withDb(db, (c) => c.run('CREATE TABLE u(a UNIQUE)'));
    expect(await fail("INSERT INTO u VALUES ('x'), ('x')")).toEqual([
      'IntegrityError: UNIQUE constraint failed: u.a',
      'UNIQUE constraint failed: u.a',
    ]);
    const missing = await withDb(join(dir, 'no', 'such', 'x.db'), () => 'opened').catch(
      (e: Error) => e.message,
    );
    expect(missing).toBe('OperationalError: unable to open database file');
  });
});
