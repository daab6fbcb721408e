import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { genJid } from '../../kernel/jid.js';
import { memoryLogger } from '../../modules/_fake-ctx.js';
import jobStore, { jobStoreOptions, storeSettings } from './index.js';
import * as Q from './queries.js';
import { openDatabase } from './schema.js';
import { JobStore } from './store.js';
import { LOCK_TRY_MS, VERIFY_MS } from './write-queue.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-js-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function ctxIn(name: string, options: Record<string, unknown> = {}) {
  return {
    opts: { cachedir: join(root, name) },
    log: memoryLogger(),
    options: jobStoreOptions.parse({ busy_timeout: 50, retry_interval: 0.05, ...options }),
  };
}

const ret = (id: string, jid: string, value: unknown = true) => ({
  id,
  jid,
  fun: 'test.echo',
  fun_args: [],
  return: value,
  retcode: 0,
  success: true,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What another process opening the path now would read for `jid`. */
function minionsInFile(path: string, jid: string): string[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (
      db
        .prepare(
          'SELECT r.minion FROM jobs j JOIN returns r ON r.job = j.id WHERE j.jid = ? ORDER BY r.minion',
        )
        .all(jid) as Array<{ minion: string }>
    ).map((r) => r.minion);
  } finally {
    db.close();
  }
}

describe('job_store: a store deleted while open', () => {
  it('writes made after the deletion land in a file made anew at the path, for every other reader to see', async () => {
    const ctx = ctxIn('deleted');
    const path = join(root, 'deleted', 'jobs.sqlite');
    const before = await jobStore.prepJid!(ctx);
    await jobStore.returner(ret('m0', before), ctx);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    const jid = await jobStore.prepJid!(ctx);
    await jobStore.saveLoad!(
      jid,
      { cmd: 'publish', tgt: '*', fun: 'test.echo', arg: [], tgt_type: 'glob', ret: '', jid, user: 'root' },
      ['m1', 'm2', 'm3'],
      ctx,
    );
    for (const id of ['m1', 'm2', 'm3']) await jobStore.returner(ret(id, jid), ctx);
    await sleep(VERIFY_MS * 3);
    expect(minionsInFile(path, jid)).toEqual(['m1', 'm2', 'm3']);
    expect(Object.keys(await jobStore.getJid!(jid, ctx))).toEqual(['m1', 'm2', 'm3']);
    expect((await jobStore.getLoad!(jid, ctx))?.Minions).toEqual(['m1', 'm2', 'm3']);
    expect(ctx.log.lines).toContainEqual([
      'error',
      expect.objectContaining({ kind: 'deleted', path }),
      expect.stringContaining(`job store ${path} was deleted while open`),
    ]);
    await jobStore.close!(ctx);
  });

  it('a read after the deletion finds the store another process made anew, not the old file', async () => {
    const ctx = ctxIn('deleted-read');
    const path = join(root, 'deleted-read', 'jobs.sqlite');
    const old = await jobStore.prepJid!(ctx);
    await jobStore.returner(ret('m1', old), ctx);
    await sleep(VERIFY_MS * 3);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    const other = openDatabase(storeSettings(ctx));
    const jid = genJid();
    Q.insertReturn(other, jid, 'elsewhere', ['test.echo'], { return: true });
    other.close();
    expect(await jobStore.getJid!(old, ctx)).toEqual({});
    expect(Object.keys(await jobStore.getJid!(jid, ctx))).toEqual(['elsewhere']);
    await jobStore.close!(ctx);
  });
});

describe('job_store: a store that cannot be written', () => {
  it('keeps the writes in memory, jobs going on, and stores them in order once it can', async () => {
    const ctx = ctxIn('blocked');
    const dir = join(root, 'blocked');
    const path = join(dir, 'jobs.sqlite');
    const jid = await jobStore.prepJid!(ctx);
    await jobStore.returner(ret('m0', jid), ctx);
    // the folder goes, and a file stands where it was: nothing can be made there
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'in the way');
    const later = await jobStore.prepJid!(ctx);
    for (const id of ['m1', 'm2']) await jobStore.returner(ret(id, later), ctx);
    await sleep(VERIFY_MS * 3);
    expect(ctx.log.lines).toContainEqual([
      'error',
      expect.anything(),
      expect.stringMatching(
        new RegExp(`^job store ${path} cannot be written \\(.+\\): writes are kept in memory`),
      ),
    ]);
    await expect(jobStore.getJid!(later, ctx)).rejects.toMatchObject({ code: 'SALT_ERR_JOB_STORE' });
    rmSync(dir);
    mkdirSync(dir);
    await sleep(300);
    // the writes made since the folder went (m0 again, the reservation, m1, m2), in order
    expect(minionsInFile(path, later)).toEqual(['m1', 'm2']);
    expect(minionsInFile(path, jid)).toEqual(['m0']);
    expect(ctx.log.lines).toContainEqual([
      'warn',
      expect.objectContaining({ dropped: 0 }),
      expect.stringContaining('buffered writes stored'),
    ]);
    await jobStore.close!(ctx);
  });

  it('past buffer_size the oldest writes are dropped, and the count is logged', async () => {
    const ctx = ctxIn('bounded', { buffer_size: 3 });
    const path = join(root, 'bounded', 'jobs.sqlite');
    const jid = await jobStore.prepJid!(ctx);
    const other = new Database(path);
    other.prepare('BEGIN IMMEDIATE').run();
    for (const id of ['m1', 'm2', 'm3', 'm4', 'm5']) await jobStore.returner(ret(id, jid), ctx);
    expect(ctx.log.lines).toContainEqual([
      'error',
      expect.objectContaining({ dropped: 1, kept: 3 }),
      expect.stringContaining('write buffer full, dropped the oldest pending writes'),
    ]);
    other.prepare('ROLLBACK').run();
    other.close();
    await sleep(300);
    expect(minionsInFile(path, jid)).toEqual(['m3', 'm4', 'm5']);
    expect(ctx.log.lines).toContainEqual([
      'warn',
      expect.objectContaining({ written: 3, dropped: 2 }),
      expect.stringContaining('buffered writes stored'),
    ]);
    await jobStore.close!(ctx);
  });
});

describe('job_store: busy_timeout', () => {
  it('commits wait at most LOCK_TRY_MS for the lock, reads and close the full busy_timeout', async () => {
    const ctx = ctxIn('timeouts', { busy_timeout: 4321 });
    const store = new JobStore(storeSettings(ctx), ctx.log);
    const timeout = (db: Database.Database) => Number(db.pragma('busy_timeout', { simple: true }));
    // inside a commit: the short wait
    expect(await store.keep('t', timeout)).toBe(LOCK_TRY_MS);
    expect(await store.keep('t', timeout)).toBe(LOCK_TRY_MS);
    // a read after commits: the full one again
    expect(await store.read(timeout)).toBe(4321);
    expect(await store.keep('t', timeout)).toBe(LOCK_TRY_MS);
    const db = store.file.db();
    await store.close();
    expect(db.open).toBe(false);
    expect(await store.read(timeout)).toBe(4321);
    await store.close();
  });
});
