/**
 * A minion restart never loses a running job: stopped (SIGTERM, as systemd's restart with
 * KillMode=process and the sysvinit script send), the minion leaves its running jobs to their
 * job processes, which send the returns through their own channel; killed outright, its job
 * processes notice and do the same. The new minion meanwhile answers jobs as usual. A job left
 * so that then asks for its pillar or changes the schedule is served too: the pillar by the
 * master over the job process's own channel, the schedule by the new minion.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

/** `late.calls FLAG`: waits for FLAG (the test writes it once the minion restarted), then asks for pillar and schedule. */
const LATE_MODULE = `import { existsSync } from 'node:fs';
export default { name: 'late', functions: { calls: { varargs: true, run: async (ctx, _a, { args }) => {
  const deadline = Date.now() + 90000;
  while (!existsSync(String(args[0]))) {
    if (Date.now() > deadline) return 'no flag';
    await new Promise((r) => setTimeout(r, 100));
  }
  const items = await ctx.call('pillar.items');
  const refreshed = await ctx.call('saltutil.refresh_pillar');
  const added = await ctx.call('schedule.add', ['late_job'], { function: 'test.ping', seconds: 3600 });
  return { items, refreshed, added: added.result };
} } } };
`;

describe('running jobs across a minion restart', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const pillarDir = join(c.root, 'srv', 'pillar');
  master.pillar_roots = { base: [pillarDir] };
  const moduleDir = join(c.root, 'ext-modules');
  const minion = { module_dirs: [moduleDir] };
  const writePillar = (color: string) => writeFileSync(join(pillarDir, 'data.sls'), `color: ${color}\n`);
  beforeAll(async () => {
    mkdirSync(pillarDir, { recursive: true });
    writeFileSync(join(pillarDir, 'top.sls'), "base:\n  '*':\n    - data\n");
    writePillar('red');
    mkdirSync(moduleDir, { recursive: true });
    writeFileSync(join(moduleDir, 'late.mjs'), LATE_MODULE);
    await c.startMaster();
    await c.startMinion('rs1', minion);
  }, 60_000);
  afterAll(() => c.stop());

  const procDir = join(c.root, 'minions', 'rs1', 'var/cache/salt/minion/proc');

  async function runningJob(seconds: number, fun = ['test.sleep', String(seconds)]): Promise<string> {
    const r = await c.salt(['--async', 'rs1', ...fun]);
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
    await c.startMinion('rs1', minion);
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

  it('a job left so is served the pillar by the master and the schedule by the new minion', async () => {
    const flag = join(c.root, 'late-flag');
    const jid = await runningJob(0, ['late.calls', flag]);
    await restart('SIGTERM');
    // a fresh compile and a refresh see the pillar as it is now
    writePillar('blue');
    writeFileSync(flag, '');
    const stored = await c.jobReturns(jid, (s) => 'rs1' in s, 90_000);
    expect(stored.rs1?.return).toEqual({
      items: { color: 'blue' },
      refreshed: true,
      added: true,
    });
    const listed = (await c.saltJson(['rs1', 'schedule.list', 'return_yaml=False'])).data.rs1;
    expect(listed).toMatchObject({ late_job: { function: 'test.ping', seconds: 3600 } });
  }, 150_000);
});
