import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../kernel/log.js';
import jobStore, { jobStoreOptions } from '../../returners/job-store/index.js';
import { describeReturnerConformance } from './conformance.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

describeReturnerConformance(
  'job_store',
  async () => {
    const root = mkdtempSync(join(tmpdir(), 'tsalt-js-conf-'));
    const ctx = {
      opts: { cachedir: root },
      log: silentLogger(),
      options: jobStoreOptions.parse({ busy_timeout: 5000 }),
    };
    return { def: jobStore, ctx, teardown: async () => rmSync(root, { recursive: true, force: true }) };
  },
  { ageByJid: true },
);

describe('job_store across processes', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-js-proc-'));
  const ctx = {
    opts: { cachedir: root },
    log: silentLogger(),
    options: jobStoreOptions.parse({ busy_timeout: 5000 }),
  };
  // the compiled writer (npm test builds dist/ first, as the integration tests need)
  const writer = join(REPO, 'dist/tools/job-store-writer.js');
  afterAll(async () => {
    await jobStore.close!(ctx);
    rmSync(root, { recursive: true, force: true });
  });

  function spawnWriter(cachedir: string, prefix: string, jobs: number, shared: string[] = []): ChildProcess {
    return spawn(process.execPath, [writer, cachedir, prefix, String(jobs), ...shared], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /** Collects `ack`/`jid` lines until the child exits (or `stopAfter` acks, then kill -9). */
  function run(
    child: ChildProcess,
    stopAfter?: number,
  ): Promise<{
    acks: Array<[string, string]>;
    dups: number;
    jids: string[];
    code: number | null;
    err: string;
  }> {
    return new Promise((resolve) => {
      const acks: Array<[string, string]> = [];
      const jids: string[] = [];
      let dups = 0;
      let buf = '';
      let err = '';
      child.stderr?.on('data', (d) => {
        err += String(d);
      });
      child.stdout?.on('data', (d) => {
        buf += String(d);
        const lines = buf.split('\n');
        buf = lines.pop() ?? '';
        for (const line of lines) {
          const [kind, a, b] = line.split(' ');
          if (kind === 'ack' && a && b) acks.push([a, b]);
          if (kind === 'jid' && a) jids.push(a);
          if (kind === 'dup') dups++;
        }
        if (stopAfter !== undefined && acks.length >= stopAfter) child.kill('SIGKILL');
      });
      child.on('exit', (code) => resolve({ acks, dups, jids, code, err }));
    });
  }

  it('a writer killed with SIGKILL mid-stream loses no acknowledged return, and the file stays sound', async () => {
    const dir = join(root, 'crash');
    const { acks, code, err } = await run(spawnWriter(dir, 'crash', 100_000), 3000);
    expect(code, err).toBeNull(); // killed, not finished
    expect(acks.length).toBeGreaterThanOrEqual(3000);
    const c = { ...ctx, opts: { cachedir: dir } };
    const byJid = new Map<string, string[]>();
    for (const [jid, id] of acks) byJid.set(jid, [...(byJid.get(jid) ?? []), id]);
    for (const [jid, ids] of byJid) {
      const got = await jobStore.getJid!(jid, c);
      for (const id of ids)
        expect(got[id]?.return, `${jid} ${id}`).toEqual({ id, blob: Buffer.alloc(64, 7) });
    }
    const db = new Database(join(dir, 'jobs.sqlite'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    await jobStore.close!(c);
  });

  it('processes that open a corrupt store at once move it aside once, and all write to one new store', async () => {
    const dir = join(root, 'corrupt');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'jobs.sqlite'), Buffer.alloc(16384, 0x41));
    const runs = await Promise.all(['a', 'b', 'c', 'd'].map((p) => run(spawnWriter(dir, p, 20))));
    for (const r of runs) expect(r.code, r.err).toBe(0);
    expect(runs.reduce((n, r) => n + r.acks.length, 0)).toBe(800);
    const names = readdirSync(dir);
    expect(names.filter((f) => /^jobs\.sqlite\.corrupt-[^-]+$/.test(f))).toHaveLength(1);
    expect(names).not.toContain('jobs.sqlite-move-aside.lock');
    const c = { ...ctx, opts: { cachedir: dir } };
    for (const r of runs)
      for (const jid of r.jids) expect(Object.keys(await jobStore.getJid!(jid, c))).toHaveLength(10);
    await jobStore.close!(c);
  });

  it('two processes write at once: every return stored, jids unique, a shared return stored once', async () => {
    const dir = join(root, 'two');
    const c = { ...ctx, opts: { cachedir: dir } };
    const shared = [await jobStore.prepJid!(c), await jobStore.prepJid!(c)];
    await jobStore.close!(c);
    const [a, b, s1, s2] = await Promise.all([
      run(spawnWriter(dir, 'a', 150)),
      run(spawnWriter(dir, 'b', 150)),
      run(spawnWriter(dir, 'same', 0, shared)),
      run(spawnWriter(dir, 'same', 0, shared)),
    ]);
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    expect(a.acks.length + b.acks.length).toBe(3000);
    expect(new Set([...a.jids, ...b.jids]).size).toBe(300);
    // the same minions returning twice for the same jobs: one process stored each, the other was refused
    expect(s1.code, s1.err).toBe(0);
    expect(s2.code, s2.err).toBe(0);
    expect(s1.acks.length + s2.acks.length).toBe(20);
    expect(s1.dups + s2.dups).toBe(20);
    for (const jid of [...a.jids, ...b.jids].slice(0, 50))
      expect(Object.keys(await jobStore.getJid!(jid, c))).toHaveLength(10);
    for (const jid of shared) expect(Object.keys(await jobStore.getJid!(jid, c))).toHaveLength(10);
    await jobStore.close!(c);
  });
});
