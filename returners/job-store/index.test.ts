import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { genJid } from '../../kernel/jid.js';
import { returnerContext } from '../../kernel/jobs/returner-options.js';
import type { PublishRequest } from '../../kernel/jobs/types.js';
import { silentLogger } from '../../kernel/log.js';
import jobStore, { type JobStoreOptions, storeSettings } from './index.js';
import { jidOf } from './queries.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-js-unit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function ctxIn(name: string) {
  const options: JobStoreOptions = { synchronous: 'normal', busy_timeout: 5000 };
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

  it('a corrupt file is a SALT_ERR_JOB_STORE naming it, not a crash; a new file works again', async () => {
    const ctx = ctxIn('corrupt');
    mkdirSync(join(root, 'corrupt'), { recursive: true });
    const path = join(root, 'corrupt', 'jobs.sqlite');
    writeFileSync(path, Buffer.alloc(8192, 0x41));
    await expect(jobStore.getJid!(genJid(), ctx)).rejects.toMatchObject({ code: 'SALT_ERR_JOB_STORE' });
    const err = await jobStore.returner(ret('m1', genJid()), ctx).catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'SALT_ERR_JOB_STORE' });
    expect((err as Error).message).toContain(path);
    rmSync(path);
    const jid = await jobStore.prepJid!(ctx);
    await jobStore.returner(ret('m1', jid), ctx);
    expect(Object.keys(await jobStore.getJid!(jid, ctx))).toEqual(['m1']);
    await jobStore.close!(ctx);
  });

  it('an unusable cachedir is a SALT_ERR_JOB_STORE', async () => {
    writeFileSync(join(root, 'not-a-dir'), 'x');
    const ctx = ctxIn('not-a-dir');
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
    });
    expect(() =>
      returnerContext(jobStore, { cachedir: '/c', 'job_store.synchronous': 'sometimes' }, log),
    ).toThrow(/job_store/);
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
      options: { synchronous: 'normal', busy_timeout: 50 } as JobStoreOptions,
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
