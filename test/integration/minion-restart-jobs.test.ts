/**
 * A minion restart never loses a running job: stopped (SIGTERM, as systemd's restart with
 * KillMode=process and the sysvinit script send), the minion leaves its running jobs to their
 * job processes, which send the returns through their own channel; killed outright, its job
 * processes notice and do the same. The new minion meanwhile answers jobs as usual.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

describe('running jobs across a minion restart', () => {
  const c = new Cluster();
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('rs1');
  }, 60_000);
  afterAll(() => c.stop());

  const procDir = join(c.root, 'minions', 'rs1', 'var/cache/salt/minion/proc');

  async function runningJob(seconds: number): Promise<string> {
    const r = await c.salt(['--async', 'rs1', 'test.sleep', String(seconds)]);
    const jid = /Executed command with job ID: (\d+)/.exec(r.stdout)?.[1];
    if (!jid) throw new Error(`no jid: ${r.stdout}${r.stderr}`);
    // the job runs once its proc file is written
    for (let i = 0; i < 600 && !existsSync(join(procDir, jid)); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(procDir)).toContain(jid);
    return jid;
  }

  async function restart(signal: NodeJS.Signals): Promise<void> {
    const code = await c.minions.get('rs1')!.stop(signal, 60_000);
    if (signal === 'SIGTERM') expect(code).toBe(0);
    await c.startMinion('rs1');
  }

  it('a stopped minion leaves its job running; the job returns, and the new minion runs jobs meanwhile', async () => {
    const jid = await runningJob(8);
    await restart('SIGTERM');
    // the new minion answers while the old job still runs
    expect((await c.saltJson(['rs1', 'test.ping', '-t', '30'])).data).toEqual({ rs1: true });
    const stored = await c.jobReturns(jid, (s) => 'rs1' in s, 90_000);
    expect(stored.rs1?.return).toBe(true);
    expect(stored.rs1?.success).toBe(true);
  }, 150_000);

  it('a killed minion process loses no return either: its job process returns the job itself', async () => {
    const jid = await runningJob(6);
    await restart('SIGKILL');
    const stored = await c.jobReturns(jid, (s) => 'rs1' in s, 90_000);
    expect(stored.rs1?.return).toBe(true);
  }, 150_000);
});
