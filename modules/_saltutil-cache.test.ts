import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packIpc } from '../kernel/util.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import saltutil from './saltutil.js';

// Answers as Salt 3006.18's saltutil gave them for the same files (salt-call --local).
describe('saltutil cache functions', () => {
  let top: string;
  let cachedir: string;
  const call = async (fun: string, arg: unknown[] = [], opts: Record<string, unknown> = {}) =>
    invoke(saltutil, fun, arg, fakeCtx({ opts: { cachedir, ...opts } }));

  beforeEach(() => {
    top = mkdtempSync(join(tmpdir(), 'tsalt-t-saltutil-cache-'));
    cachedir = join(top, 'cache');
    mkdirSync(cachedir);
  });
  afterEach(() => rmSync(top, { recursive: true, force: true }));

  it('clear_cache removes every file, keeps the folders, and does not follow a link to a folder', async () => {
    mkdirSync(join(cachedir, 'files', 'base'), { recursive: true });
    writeFileSync(join(cachedir, 'files', 'base', 'a.sls'), 'x');
    writeFileSync(join(cachedir, 'module_refresh'), '');
    const outside = join(top, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep'), 'k');
    symlinkSync(outside, join(cachedir, 'link'));
    symlinkSync(join(top, 'gone'), join(cachedir, 'dangling'));
    expect((await call('clear_cache')).value).toBe(true);
    expect(existsSync(join(cachedir, 'files', 'base'))).toBe(true);
    expect(existsSync(join(cachedir, 'files', 'base', 'a.sls'))).toBe(false);
    expect(existsSync(join(cachedir, 'module_refresh'))).toBe(false);
    expect(existsSync(join(outside, 'keep'))).toBe(true);
    expect(existsSync(join(cachedir, 'link'))).toBe(true);
  });

  it('clear_job_cache removes job folders older than `hours`, keeps younger ones', async () => {
    const jobs = join(cachedir, 'minion_jobs');
    mkdirSync(join(jobs, 'old'), { recursive: true });
    mkdirSync(join(jobs, 'young'));
    writeFileSync(join(jobs, 'old', 'return.p'), '');
    const twoDaysAgo = Date.now() / 1000 - 48 * 3600;
    utimesSync(join(jobs, 'old'), twoDaysAgo, twoDaysAgo);
    expect((await call('clear_job_cache')).value).toBe(true);
    expect(existsSync(join(jobs, 'old'))).toBe(false);
    expect(existsSync(join(jobs, 'young'))).toBe(true);
    expect((await call('clear_job_cache', [{ __kwarg__: true, hours: -1 }])).value).toBe(true);
    expect(existsSync(join(jobs, 'young'))).toBe(false);
  });

  it('find_cached_job: the cached return, or the messages Salt gives', async () => {
    expect((await call('find_cached_job', ['123'])).value).toBe(
      'Local jobs cache directory not found; you may need to enable cache_jobs on this minion',
    );
    expect((await call('find_cached_job', [123], { cache_jobs: true })).value).toBe(
      `Local jobs cache directory ${join(cachedir, 'minion_jobs', '123')} not found`,
    );
    const job = join(cachedir, 'minion_jobs', '20261129000000000001');
    mkdirSync(job, { recursive: true });
    writeFileSync(
      join(job, 'return.p'),
      packIpc({ return: true, fun: 'test.ping', jid: '20261129000000000001' }),
    );
    expect((await call('find_cached_job', ['20261129000000000001'])).value).toEqual({
      return: true,
      fun: 'test.ping',
      jid: '20261129000000000001',
    });
    writeFileSync(join(job, 'return.p'), packIpc(['not', 'a', 'dict']));
    expect((await call('find_cached_job', ['20261129000000000001'])).value).toBe(null);
  });

  it('list_extmods lists file stems by kind, at any depth, without the sync manifest', async () => {
    const ext = join(cachedir, 'extmods');
    mkdirSync(join(ext, 'utils', 'sub'), { recursive: true });
    mkdirSync(join(ext, 'modules'));
    writeFileSync(join(ext, 'utils', 'b.py'), '');
    writeFileSync(join(ext, 'utils', 'sub', 'a.tar.gz'), '');
    writeFileSync(join(ext, 'utils', '.tsalt-sync.json'), '{"files":[]}');
    expect((await call('list_extmods')).value).toEqual({ modules: [], utils: ['a', 'b'] });
    rmSync(ext, { recursive: true });
    await expect(call('list_extmods')).rejects.toThrow(`[Errno 2] No such file or directory: '${ext}'`);
  });
});
