/**
 * The default job cache (`job_store`) under faults, with real daemons: a damaged file at start,
 * a store that cannot take a write at publish time (issue 27, item 16).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../kernel/config/index.js';
import { generateRsaKeyPair } from '../../kernel/crypt/rsa.js';
import { Cluster, Daemon } from '../../tools/local-cluster.js';

const GARBAGE = Buffer.alloc(16384, 0x41);

/** The master's job store file, made ready to be damaged before the master starts. */
async function storePath(c: Cluster): Promise<string> {
  await c.writeMasterConfig();
  const { config } = await loadConfig('master', c.confDir);
  mkdirSync(config.cachedir, { recursive: true });
  return join(config.cachedir, 'jobs.sqlite');
}

/** The files moved aside beside `store` (the main file of each set). */
function asideOf(store: string): string[] {
  const dir = join(store, '..');
  return readdirSync(dir)
    .filter((f) => /^jobs\.sqlite\.corrupt-\d{8}T\d{6}\.\d{3}Z$/.test(f))
    .map((f) => join(dir, f));
}

/** `salt m1 test.ping` until m1 answers (it signs in again after a master restart). */
async function pingUntilAnswered(c: Cluster): Promise<Awaited<ReturnType<Cluster['saltJson']>>> {
  let r = await c.saltJson(['m1', 'test.ping']);
  for (let tries = 1; tries < 4 && r.data.m1 !== true; tries++) r = await c.saltJson(['m1', 'test.ping']);
  return r;
}

describe('job_store: a master started on a corrupt store', () => {
  const c = new Cluster({ master: { 'job_store.busy_timeout': 500 } });
  let store = '';
  beforeAll(async () => {
    store = await storePath(c);
    writeFileSync(store, GARBAGE);
    await c.startMaster();
    await c.startMinion('m1');
  });
  afterAll(() => c.stop());

  it('moves a file with a garbage header aside, logs where, and runs and stores jobs', async () => {
    const r = await pingUntilAnswered(c);
    expect(r.data, r.raw.stderr).toEqual({ m1: true });
    const aside = asideOf(store);
    expect(aside).toHaveLength(1);
    expect(readFileSync(aside[0]!).equals(GARBAGE)).toBe(true);
    await c.master!.waitFor(
      `job store ${store} is corrupt (file is not a database): moved aside to ${aside[0]}`,
    );
    const pub = await c.salt(['--out', 'json', '-v', 'm1', 'test.echo', 'stored']);
    const jid = /jid (\d{20})/.exec(pub.stdout)?.[1] ?? '';
    await c.jobReturns(jid, (s) => 'm1' in s);
    const look = await c.saltRun(['--out', 'json', 'jobs.lookup_jid', jid]);
    expect(JSON.parse(look.stdout)).toEqual({ m1: 'stored' });
  });

  it('while another process holds the write lock past busy_timeout, jobs run and their returns are stored once it lets go', async () => {
    const other = new Database(store);
    other.prepare('BEGIN IMMEDIATE').run();
    let r: Awaited<ReturnType<Cluster['salt']>>;
    try {
      r = await c.salt(['--out', 'json', '-v', 'm1', 'test.echo', 'kept']);
      expect(r.stdout, r.stderr).toContain('"m1": "kept"');
      await c.master!.waitFor(
        `job store ${store} cannot be written (database is locked): writes are kept in memory`,
      );
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    const jid = /jid (\d{20})/.exec(r.stdout)?.[1] ?? '';
    expect(await c.jobReturns(jid, (stored) => 'm1' in stored)).toMatchObject({ m1: { return: 'kept' } });
    const look = await c.saltRun(['--out', 'json', 'jobs.lookup_jid', jid]);
    expect(JSON.parse(look.stdout)).toEqual({ m1: 'kept' });
    await c.master!.waitFor('buffered writes stored');
  });

  it('after a restart on a truncated store, the same', async () => {
    await c.master!.stop();
    const jobCache = await c.jobCache();
    await jobCache.def.close!(jobCache.ctx);
    truncateSync(store, Math.floor(statSync(store).size / 2));
    const restarted = new Daemon('master', 'salt-master', ['-c', c.confDir]);
    c.master = restarted;
    await restarted.waitFor('salt-master started');
    // the publish is stored (m1 signs in again later; its return is not awaited here)
    const r = await c.salt(['--async', 'm1', 'test.ping']);
    expect(r.stdout, r.stderr).toMatch(/^Executed command with job ID: \d{20}\n$/);
    expect(asideOf(store)).toHaveLength(2);
    await restarted.waitFor(`job store ${store} is corrupt (database disk image is malformed): moved aside`);
  });
});

describe('job_store: a publish the store cannot take (buffer_size: 0)', () => {
  const c = new Cluster({ master: { 'job_store.busy_timeout': 300, 'job_store.buffer_size': 0 } });
  let store = '';
  beforeAll(async () => {
    store = await storePath(c);
    await c.startMaster();
    // an accepted key with no minion behind it: a target the master publishes to
    const accepted = join(c.root, 'etc/salt/pki/master/minions');
    mkdirSync(accepted, { recursive: true });
    writeFileSync(join(accepted, 'ghost'), generateRsaKeyPair().publicPem);
  });
  afterAll(() => c.stop());

  it('says what failed, with its code, instead of a bare "Server-side exception handling payload"', async () => {
    // a list target of a minion with an accepted key is published (and reported as not returning)
    expect((await c.salt(['-L', 'ghost', 'test.ping'])).stdout).toContain('ghost');
    const other = new Database(store);
    other.prepare('BEGIN IMMEDIATE').run();
    let r: Awaited<ReturnType<Cluster['salt']>>;
    try {
      r = await c.salt(['-L', 'ghost', 'test.ping']);
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    expect(r.stderr).toContain(
      `ERROR: Master failed to assign jid: SALT_ERR_JOB_STORE: job store ${store}: database is locked`,
    );
    expect(r.code).toBe(2);
  });
});

describe('job_store: on_corrupt: refuse', () => {
  const c = new Cluster({ master: { 'job_store.on_corrupt': 'refuse' } });
  afterAll(() => c.stop());

  it('the master does not start, says why with the code and the file, and leaves the file alone', async () => {
    const store = await storePath(c);
    writeFileSync(store, GARBAGE);
    const master = new Daemon('master', 'salt-master', ['-c', c.confDir]);
    c.master = master; // stopped by c.stop() should it start after all
    const code = await Promise.race([
      new Promise<number | null>((r) => master.proc.once('exit', r)),
      new Promise<string>((r) => setTimeout(() => r('still running after 30 s'), 30_000)),
    ]);
    expect(code, master.out).toBe(1);
    expect(master.out).toContain('SALT_ERR_JOB_STORE_CORRUPT');
    expect(master.out).toContain(`job store ${store} is corrupt (file is not a database)`);
    expect(readdirSync(join(store, '..')).filter((f) => f.startsWith('jobs.sqlite'))).toEqual([
      'jobs.sqlite',
    ]);
    expect(readFileSync(store).equals(GARBAGE)).toBe(true);
  });
});

describe('job_store: the store deleted while the master runs', () => {
  const c = new Cluster();
  let store = '';
  beforeAll(async () => {
    store = await storePath(c);
    await c.startMaster();
    await c.startMinion('m1');
  });
  afterAll(() => c.stop());

  it('asynchronous returns are stored in a new store, and the job runners read it', async () => {
    expect((await c.saltJson(['m1', 'test.ping'])).data).toEqual({ m1: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${store}${suffix}`, { force: true });
    const jids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await c.salt(['--async', 'm1', 'test.echo', `after-delete-${i}`]);
      const jid = /job ID: (\d{20})/.exec(r.stdout)?.[1];
      expect(jid, r.stdout + r.stderr).toBeDefined();
      jids.push(jid!);
    }
    await new Promise((r) => setTimeout(r, 1500));
    for (const [i, jid] of jids.entries()) {
      const look = await c.saltRun(['--out', 'json', 'jobs.lookup_jid', jid]);
      expect(look.stdout + look.stderr, `${i}`).toContain(`after-delete-${i}`);
    }
    const listed = await c.saltRun(['--out', 'json', 'jobs.list_jobs']);
    expect(listed.code, listed.stdout + listed.stderr).toBe(0);
    expect(Object.keys(JSON.parse(listed.stdout))).toEqual(expect.arrayContaining(jids));
  });
});
