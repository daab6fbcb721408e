/**
 * Salt's `minion` module on a real master and minions: `minion.list` reads the master's key
 * folders, `minion.kill` stops the minion (its job process still returns the answer), and
 * `minion.restart` of a minion not run as a daemon kills it for its supervisor to start.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

describe('the minion module', () => {
  const c = new Cluster();
  beforeAll(async () => {
    await c.startMaster();
    await Promise.all([c.startMinion('k1'), c.startMinion('r1'), c.startMinion('l1')]);
  }, 90_000);
  afterAll(() => c.stop());

  /** Runs `fun` on `id` asynchronously and waits for its return in the job cache. */
  async function ret(id: string, fun: string[]): Promise<Record<string, unknown>> {
    const r = await c.salt(['--async', id, ...fun]);
    const jid = /Executed command with job ID: (\d+)/.exec(r.stdout)?.[1];
    if (!jid) throw new Error(`no jid: ${r.stdout}${r.stderr}`);
    const stored = await c.jobReturns(jid, (s) => id in s, 60_000);
    return (stored[id] ?? {}) as Record<string, unknown>;
  }

  async function gone(id: string): Promise<boolean> {
    const d = c.minions.get(id);
    for (let i = 0; i < 300 && d?.alive; i++) await new Promise((r) => setTimeout(r, 100));
    return d?.alive === false;
  }

  it("minion.list: the master's keys by folder, in Salt's order (files only, case-blind sort)", async () => {
    // the folders of l1's pki_dir with "minion" read as "master" (root_dir's path included, as in Salt)
    const pkiDir = String((await c.saltJson(['l1', 'config.get', 'pki_dir'])).data.l1);
    const master = pkiDir.replaceAll('minion', 'master');
    for (const [dir, names] of [
      ['minions', ['web2', 'Alpha', 'beta', '.hidden']],
      ['minions_rejected', ['zed']],
    ] as const) {
      mkdirSync(join(master, dir), { recursive: true });
      for (const n of names) writeFileSync(join(master, dir, n), 'key\n');
    }
    mkdirSync(join(master, 'minions', 'a-folder'));
    const { data } = await c.saltJson(['l1', 'minion.list']);
    expect(JSON.stringify(data.l1)).toBe(
      JSON.stringify({
        minions: ['Alpha', 'beta', 'web2'],
        minions_pre: [],
        minions_rejected: ['zed'],
        minions_denied: [],
      }),
    );
  });

  it('minion.kill stops the minion and still returns {killed, retcode}', async () => {
    const pid = c.minions.get('k1')?.proc.pid;
    const r = await ret('k1', ['minion.kill']);
    expect(r.return).toEqual({ killed: pid, retcode: 0 });
    expect(await gone('k1')).toBe(true);
  });

  it('minion.restart of a minion not run with -d kills it and says so', async () => {
    const pid = c.minions.get('r1')?.proc.pid;
    const r = await ret('r1', ['minion.restart']);
    expect(JSON.stringify(r.return)).toBe(
      JSON.stringify({
        killed: pid,
        restart: {},
        service_restart: {},
        retcode: 0,
        comment: ['Not running in daemon mode - will not restart process after killing'],
      }),
    );
    expect(await gone('r1')).toBe(true);
  });
});
