import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { genJid } from '../../kernel/jid.js';
import { returnerContext } from '../../kernel/jobs/returner-options.js';
import type { PublishRequest } from '../../kernel/jobs/types.js';
import { silentLogger } from '../../kernel/log.js';
import { memoryLogger } from '../../modules/_fake-ctx.js';
import jobStore, { jobStoreOptions, storeSettings } from './index.js';
import { jidOf } from './queries.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-js-unit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function ctxIn(name: string) {
  const options = jobStoreOptions.parse({ busy_timeout: 5000 });
  return { opts: { cachedir: join(root, name) }, log: silentLogger(), options };
}

function load(jid: string, fun: string | string[], tgt: string | string[] = '*'): PublishRequest {
  return { cmd: 'publish', tgt, fun, arg: [], tgt_type: 'glob', ret: '', jid, user: 'root' };
}

const ret = (id: string, jid: string, value: unknown = true, fun: string | string[] = 'test.ping') => ({
  id,
  jid,
  fun,
  fun_args: [],
  return: value,
  retcode: 0,
  success: true,
});

describe('job_store', () => {
  it('keeps one file in the cachedir and its data across close and reopen', async () => {
    const ctx = ctxIn('reopen');
    const jid = await jobStore.prepJid!(ctx);
    await jobStore.saveLoad!(jid, load(jid, 'test.ping'), ['m1'], ctx);
    await jobStore.returner(ret('m1', jid), ctx);
    await jobStore.close!(ctx);
    expect(statSync(join(root, 'reopen', 'jobs.sqlite')).isFile()).toBe(true);
    expect(await jobStore.getJid!(jid, ctx)).toEqual({ m1: { return: true, retcode: 0, success: true } });
    await expect(jobStore.returner(ret('m1', jid), ctx)).rejects.toMatchObject({
      code: 'SALT_ERR_JOB_DUPLICATE_RETURN',
    });
    await jobStore.close!(ctx);
  });

  it('a corrupt file (garbage header, truncated) is moved aside with its -wal and -shm, and a new store takes the writes', async () => {
    for (const [name, damage] of [
      ['garbage', (path: string) => writeFileSync(path, Buffer.alloc(8192, 0x41))],
      ['truncated', (path: string) => truncateSync(path, Math.floor(statSync(path).size / 2))],
    ] as const) {
      const dir = join(root, name);
      const path = join(dir, 'jobs.sqlite');
      const before = { ...ctxIn(name), log: memoryLogger() };
      const old = await jobStore.prepJid!(before);
      for (let i = 0; i < 200; i++) await jobStore.returner(ret(`m${i}`, old, 'x'.repeat(500)), before);
      await jobStore.close!(before);
      damage(path);
      writeFileSync(`${path}-wal`, 'old wal');
      writeFileSync(`${path}-shm`, 'old shm');
      const damaged = readFileSync(path);
      const ctx = { ...ctxIn(name), log: memoryLogger() };
      const jid = await jobStore.prepJid!(ctx);
      await jobStore.returner(ret('m1', jid), ctx);
      expect(Object.keys(await jobStore.getJid!(jid, ctx))).toEqual(['m1']);
      const aside = readdirSync(dir).filter((f) => f.startsWith('jobs.sqlite.corrupt-'));
      expect(aside.sort(), name).toHaveLength(3);
      const main = aside.find((f) => /^jobs\.sqlite\.corrupt-\d{8}T\d{6}\.\d{3}Z$/.test(f))!;
      expect(readFileSync(join(dir, main)).equals(damaged)).toBe(true);
      expect(readFileSync(join(dir, `${main}-wal`), 'utf8')).toBe('old wal');
      // the -shm (an index SQLite rebuilds from the WAL) goes with them; its bytes need not stay
      expect(statSync(join(dir, `${main}-shm`)).isFile()).toBe(true);
      expect(ctx.log.lines).toContainEqual([
        'error',
        expect.objectContaining({ code: 'SALT_ERR_JOB_STORE_CORRUPT', moved_to: join(dir, main) }),
        expect.stringContaining(`job store ${path} is corrupt (`),
      ]);
      await jobStore.close!(ctx);
    }
  });

  it('damage that opening does not see: the first operation that meets it has the file checked and moved aside', async () => {
    const ctx = { ...ctxIn('inside'), log: memoryLogger() };
    const path = join(root, 'inside', 'jobs.sqlite');
    const old = await jobStore.prepJid!(ctx);
    for (let i = 0; i < 200; i++) await jobStore.returner(ret(`m${i}`, old, 'x'.repeat(500)), ctx);
    await jobStore.close!(ctx);
    // every page after the first (the header and the schema) overwritten
    const bytes = readFileSync(path);
    bytes.fill(0x41, 4096);
    writeFileSync(path, bytes);
    await expect(jobStore.getJid!(old, ctx)).rejects.toMatchObject({
      code: 'SALT_ERR_JOB_STORE',
      message: expect.stringContaining('malformed'),
    });
    expect(ctx.log.lines.map((l) => l[1])).toContainEqual(
      expect.objectContaining({ code: 'SALT_ERR_JOB_STORE_CORRUPT', path }),
    );
    const jid = await jobStore.prepJid!(ctx);
    await jobStore.returner(ret('m1', jid), ctx);
    expect(Object.keys(await jobStore.getJid!(jid, ctx))).toEqual(['m1']);
    const aside = readdirSync(join(root, 'inside')).filter((f) => /\.corrupt-\d{8}T\d{6}\.\d{3}Z$/.test(f));
    expect(aside).toHaveLength(1);
    await jobStore.close!(ctx);
  });

  it('with on_corrupt: refuse a corrupt file is left as it is and loading the store fails with SALT_ERR_JOB_STORE_CORRUPT', async () => {
    const dir = join(root, 'refuse');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'jobs.sqlite');
    writeFileSync(path, Buffer.alloc(8192, 0x41));
    const ctx = { ...ctxIn('refuse'), options: jobStoreOptions.parse({ on_corrupt: 'refuse' }) };
    const err = await Promise.resolve()
      .then(() => jobStore.virtual!(ctx))
      .catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'SALT_ERR_JOB_STORE_CORRUPT' });
    expect((err as Error).message).toContain(`job store ${path} is corrupt (file is not a database)`);
    await expect(jobStore.getJid!(genJid(), ctx)).rejects.toMatchObject({
      code: 'SALT_ERR_JOB_STORE_CORRUPT',
    });
    expect(readdirSync(dir)).toEqual(['jobs.sqlite']);
    expect(readFileSync(path).equals(Buffer.alloc(8192, 0x41))).toBe(true);
  });

  it('an unusable cachedir is a SALT_ERR_JOB_STORE for reads, and for writes with buffer_size: 0', async () => {
    writeFileSync(join(root, 'not-a-dir'), 'x');
    const ctx = { ...ctxIn('not-a-dir'), options: jobStoreOptions.parse({ buffer_size: 0 }) };
    await expect(jobStore.prepJid!(ctx)).rejects.toMatchObject({ code: 'SALT_ERR_JOB_STORE' });
    await expect(jobStore.getLoad!(genJid(), ctx)).rejects.toMatchObject({ code: 'SALT_ERR_JOB_STORE' });
  });

  it('reads its options as job_store.<key> and validates them', () => {
    const log = silentLogger();
    const ctx = returnerContext(jobStore, { cachedir: '/c', 'job_store.synchronous': 'full' }, log);
    expect(storeSettings(ctx)).toEqual({
      path: '/c/jobs.sqlite',
      synchronous: 'full',
      busyTimeoutMs: 10_000,
      onCorrupt: 'move_aside',
      bufferSize: 10_000,
      retryMs: 1000,
    });
    expect(() =>
      returnerContext(jobStore, { cachedir: '/c', 'job_store.synchronous': 'sometimes' }, log),
    ).toThrow(/job_store/);
  });

  it('docs/config.md lists every option, with its default', () => {
    const docs = readFileSync(new URL('../../docs/config.md', import.meta.url), 'utf8');
    const rows = docs.slice(docs.indexOf('## Job store options')).split('\n');
    const defaults: Record<string, unknown> = jobStoreOptions.parse({});
    for (const key of Object.keys(jobStoreOptions.shape)) {
      const row = rows.find((line) => line.startsWith(`| \`job_store.${key}\` |`));
      expect(row, key).toBeDefined();
      if (defaults[key] !== undefined) expect(row?.split(' | ')[2], key).toBe(`\`${String(defaults[key])}\``);
    }
  });

  it('searches multi-function jobs and [...] globs exactly', async () => {
    const ctx = ctxIn('search');
    const a = await jobStore.prepJid!(ctx);
    const b = await jobStore.prepJid!(ctx);
    await jobStore.saveLoad!(a, load(a, ['test.ping', 'grains.item'], ['web1', 'db1']), ['web1', 'db1'], ctx);
    await jobStore.saveLoad!(b, load(b, 'grains.items', 'web[0-9]'), ['web1', 'web2'], ctx);
    const ids = async (q: Parameters<NonNullable<typeof jobStore.listJobs>>[0]) =>
      (await jobStore.listJobs!(q, ctx)).map((j) => j.jid);
    expect(await ids({ searchFunction: 'grains.item' })).toEqual([a]);
    expect(await ids({ searchFunction: 'grains.item?' })).toEqual([b]);
    expect(await ids({ searchFunction: 'grains.item*' })).toEqual([b, a]);
    expect(await ids({ searchFunction: 'test.p[!x]ng' })).toEqual([a]);
    expect(await ids({ searchTarget: 'db[12]' })).toEqual([a]);
    expect(await ids({ searchTarget: 'web2' })).toEqual([b]);
    await jobStore.returner(ret('web1', a, { 'test.ping': true }, ['test.ping', 'grains.item']), ctx);
    expect(await jobStore.getFun!('grains.item', ctx)).toEqual({ web1: a });
    expect(await jobStore.getFun!('test.ping', ctx)).toEqual({ web1: a });
    await jobStore.close!(ctx);
  });

  it('cleanOldJobs removes old jobs and events in batches and gives the space back', async () => {
    const ctx = ctxIn('reclaim');
    const base = Date.now() - 30 * 86400_000;
    const blob = Buffer.alloc(2000, 1);
    for (let i = 0; i < 1200; i++) {
      const jid = `${jidOf(base + i)}`;
      await jobStore.saveLoad!(jid, load(jid, 'test.echo'), ['m1', 'm2'], ctx);
      await Promise.all([
        jobStore.returner(ret('m1', jid, blob), ctx),
        jobStore.returner(ret('m2', jid, blob), ctx),
      ]);
    }
    await jobStore.eventReturn!([{ tag: 'salt/old', data: { x: blob } }], ctx);
    const keep = await jobStore.prepJid!(ctx);
    await jobStore.returner(ret('m1', keep), ctx);
    const path = join(root, 'reclaim', 'jobs.sqlite');
    const db = new Database(path, { readonly: true });
    const pages = () => Number(db.pragma('page_count', { simple: true }));
    const before = pages();
    await new Promise((r) => setTimeout(r, 1100));
    expect(await jobStore.cleanOldJobs!(86400, ctx)).toBe(1200);
    expect(pages()).toBeLessThan(before / 4);
    expect(Object.keys(await jobStore.getJid!(keep, ctx))).toEqual(['m1']);
    expect(db.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 1 });
    expect(await jobStore.cleanOldJobs!(1, ctx)).toBe(1);
    expect(db.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 0 });
    expect(await jobStore.getMinions!(ctx)).toEqual([]);
    db.close();
    await jobStore.close!(ctx);
  });

  it('cleanOldJobs with nothing to remove does not wait for the write lock', async () => {
    const ctx = {
      ...ctxIn('idle-clean'),
      options: jobStoreOptions.parse({ busy_timeout: 50 }),
    };
    const jid = await jobStore.prepJid!(ctx);
    await jobStore.returner(ret('m1', jid), ctx);
    const other = new Database(join(root, 'idle-clean', 'jobs.sqlite'));
    other.prepare('BEGIN IMMEDIATE').run();
    try {
      expect(await jobStore.cleanOldJobs!(86400, ctx)).toBe(0);
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    await jobStore.close!(ctx);
  });
});
