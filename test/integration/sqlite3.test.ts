/**
 * The `sqlite3` execution module and `sqlite3.*` states through a real `salt-call --local`.
 * Expectations: what Salt 3006.18 returned for the same calls and SLS (a /tmp harness: 51 of 51
 * module returns and state results identical, each side on its own database).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type LocalCall, localCaller } from '../support/local-call.js';

describe('sqlite3 module and states through salt-call --local', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-sqlite3-'));
  const call: LocalCall = localCaller(root, 'sq1');
  const db = join(root, 'a.db');
  const sls = (text: string) => {
    mkdirSync(join(root, 'srv'), { recursive: true });
    writeFileSync(join(root, 'srv', 'x.sls'), text);
  };
  const apply = async (...extra: string[]) => {
    const { local } = await call('state.apply', 'x', ...extra);
    const ret = local as Record<string, { result: unknown; comment: string; changes: unknown }>;
    return Object.fromEntries(Object.entries(ret).map(([k, v]) => [k.split('_|-')[1], v]));
  };
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("runs one statement and returns rows with Python's types; a bad statement is a clean error", async () => {
    expect((await call('sqlite3.modify', db, 'CREATE TABLE t(i INT, r REAL, b BLOB, n);')).local).toBe(true);
    await call('sqlite3.modify', db, "INSERT INTO t VALUES (1, 1.0, x'0102', NULL);");
    const fetched = await call('sqlite3.fetch', db, 'SELECT * FROM t;');
    expect(fetched.output).toContain('1.0,');
    expect(fetched.local).toEqual([[1, 1, "b'\\x01\\x02'", null]]);
    expect((await call('sqlite3.tables', db)).local).toEqual([['t']]);
    expect((await call('sqlite3.fetch')).local).toBe(false);
    const bad = await call('sqlite3.modify', db, 'CREATE TABLE u(a); CREATE TABLE v(b);');
    expect(bad.code).not.toBe(0);
    expect(bad.output).toContain('ProgrammingError: You can only execute one statement at a time.');
  });

  it('creates a table and inserts, updates and removes a row, with test mode first', async () => {
    const table = `users:\n  sqlite3.table_present:\n    - db: ${db}\n    - schema:\n      - email TEXT NOT NULL\n      - n INT\n`;
    const row = (n: number, update = false) =>
      `${table}row:\n  sqlite3.row_present:\n    - db: ${db}\n    - table: users\n    - where_sql: email='a@x'\n` +
      `    - data: {email: a@x, n: ${n}}\n${update ? '    - update: True\n' : ''}    - require: [{sqlite3: users}]\n`;
    sls(row(5));
    const planned = await apply('test=True');
    expect(planned.users).toMatchObject({
      result: true,
      comment: "'users' will be created",
      changes: { new: 'CREATE TABLE `users` (email TEXT NOT NULL,n INT)' },
    });
    expect((await apply()).row).toMatchObject({
      result: true,
      comment: 'Inserted row',
      changes: { new: { n: 5 } },
    });
    const again = await apply();
    expect(again.users).toMatchObject({
      result: true,
      comment: "'users' exists with matching schema",
      changes: {},
    });
    expect(again.row).toMatchObject({ result: true, comment: 'Row exists', changes: {} });
    sls(row(6));
    expect((await apply()).row).toMatchObject({
      result: false,
      comment: 'Existing data doesnot match desired state',
    });
    sls(row(6, true));
    expect((await apply()).row).toMatchObject({
      result: true,
      comment: 'Row updated',
      changes: { old: { email: 'a@x', n: 5 }, new: { email: 'a@x', n: 6 } },
    });
    sls(
      `gone:\n  sqlite3.row_absent:\n    - db: ${db}\n    - table: users\n    - where_sql: email = ?\n    - where_args: [a@x]\n`,
    );
    expect((await apply()).gone).toMatchObject({
      result: true,
      comment: 'Row removed',
      changes: { old: { n: 6 } },
    });
    expect((await apply()).gone).toMatchObject({ result: true, comment: 'Row is absent', changes: {} });
    sls(`users:\n  sqlite3.table_absent:\n    - db: ${db}\n`);
    expect((await apply()).users).toMatchObject({ result: true, comment: "'users' was dropped" });
    sls(
      `bad:\n  sqlite3.table_present:\n    - db: ${join(root, 'no', 'dir', 'x.db')}\n    - schema: CREATE TABLE b (a)\n`,
    );
    expect((await apply()).bad).toMatchObject({ result: false, comment: 'unable to open database file' });
  });
});
