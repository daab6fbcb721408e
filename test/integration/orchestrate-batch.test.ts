/**
 * Orchestration's `saltutil.cmd` as Salt's: `salt.state` with `batch` publishes to the
 * responding minions N at a time (Salt's `cmd_batch`: one job per slot, returns without jid or
 * retcode), `subset` runs on that many of the targeted minions that have the function, and
 * with `expect_minions` (salt.state's default) a targeted minion that does not
 * return fails the run instead of being left out; a listed minion the master does not know
 * fails it with or without `expect_minions` (Salt's `missing`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

type Entry = { result: boolean | null; comment: string; changes: Record<string, unknown> };

describe('orchestration through saltutil.cmd: batch and expect_minions', () => {
  const master: Record<string, unknown> = { timeout: 3, gather_job_timeout: 2 };
  const c = new Cluster({ master });
  const srv = join(c.root, 'srv', 'salt');
  const orchestrate = async (sls: string) => {
    const r = await c.saltRun(['state.orchestrate', sls, '--out', 'json'], 120_000);
    const out = JSON.parse(r.stdout) as { data: Record<string, Record<string, Entry>> };
    return out.data[`${hostname()}_master`] as Record<string, Entry>;
  };
  const stateJobs = async () => {
    const r = await c.saltRun(['jobs.list_jobs', '--out', 'json']);
    const jobs = JSON.parse(r.stdout) as Record<
      string,
      { Function: string; Target: unknown; Arguments: unknown[] }
    >;
    return Object.values(jobs).filter((j) => j.Function === 'state.sls');
  };

  beforeAll(async () => {
    mkdirSync(join(srv, 'orch'), { recursive: true });
    writeFileSync(join(srv, 'noop.sls'), 'n:\n  test.nop: []\n');
    writeFileSync(
      join(srv, 'orch', 'batch.sls'),
      "rolling:\n  salt.state:\n    - tgt: 'b*'\n    - sls: noop\n    - batch: 1\n",
    );
    writeFileSync(
      join(srv, 'orch', 'subset.sls'),
      "one:\n  salt.state:\n    - tgt: 'b*'\n    - sls: noop\n    - subset: 1\n",
    );
    writeFileSync(join(srv, 'orch', 'all.sls'), "all:\n  salt.state:\n    - tgt: 'b*'\n    - sls: noop\n");
    writeFileSync(
      join(srv, 'orch', 'ghost.sls'),
      'ping:\n  salt.function:\n    - name: test.ping\n    - tgt: [b1, ghost]\n    - tgt_type: list\n',
    );
    Object.assign(master, { file_roots: { base: [srv] } });
    await c.startMaster();
    await c.startMinion('b1');
    await c.startMinion('b2');
  }, 90_000);
  afterAll(() => c.stop());

  it('runs a batch of 1: one job per minion, each targeting that minion alone', async () => {
    const run = await orchestrate('orch.batch');
    expect(run['salt_|-rolling_|-rolling_|-state']).toMatchObject({
      result: true,
      // in the order the minions answered the batch's test.ping, as Salt's
      comment: expect.stringMatching(/^States ran successfully\. No changes made to (b1, b2|b2, b1)\.$/),
    });
    const jobs = await stateJobs();
    expect(jobs.map((j) => j.Target).sort()).toEqual([['b1'], ['b2']]);
  }, 120_000);

  it('runs a subset of 1: one of the targeted minions, picked at random', async () => {
    const before = (await stateJobs()).length;
    const run = await orchestrate('orch.subset');
    expect(run['salt_|-one_|-one_|-state']).toMatchObject({
      result: true,
      comment: expect.stringMatching(/^States ran successfully\. No changes made to b[12]\.$/),
    });
    const jobs = await stateJobs();
    expect(jobs.length).toBe(before + 1);
    const targets = jobs.map((j) => JSON.stringify(j.Target));
    expect(targets.filter((t) => t === '["b1"]' || t === '["b2"]').length).toBe(3);
  }, 120_000);

  it('fails the run for a targeted minion that does not return', async () => {
    await c.startMinion('b3');
    await c.minions.get('b3')?.stop();
    const run = await orchestrate('orch.all');
    expect(run['salt_|-all_|-all_|-state']).toMatchObject({
      result: false,
      comment: 'Run failed on minions: b3',
    });
  }, 120_000);

  it('fails salt.function for a listed minion the master does not know, without expect_minions', async () => {
    const run = await orchestrate('orch.ghost');
    // Salt 3006.18 gives the same (a live master with one minion, m1 for b1)
    expect(run['salt_|-ping_|-test.ping_|-function']).toMatchObject({
      result: false,
      comment: 'Running function test.ping failed on minions: ghost Function test.ping ran on b1, ghost.',
      changes: { ret: { b1: true, ghost: false } },
    });
  }, 120_000);
});
