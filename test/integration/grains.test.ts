import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

describe('grains end to end', () => {
  const c = new Cluster();
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('m1');
    await c.startMinion('m2', { grains: { env: 'prod', app: { tier: 'front' } } });
  });
  afterAll(() => c.stop());

  it('grains.item returns the named core grains', async () => {
    const r = await c.saltJson(['m1', 'grains.item', 'os', 'id']);
    const m1 = r.data.m1 as Record<string, unknown>;
    expect(Object.keys(m1)).toEqual(['os', 'id']);
    expect(m1.id).toBe('m1');
    expect(typeof m1.os).toBe('string');
    expect(m1.os).not.toBe('');
    expect(r.code).toBe(0);
  });

  it("a job sees the minion's host grains: its pid is the minion's, as Salt's forked jobs inherit it", async () => {
    const minion = c.minions.get('m1')!;
    // cmd.run runs in a job process, a child of the minion process
    const child = await c.saltJson(['m1', 'cmd.run', 'echo $PPID']);
    expect(child.data.m1).not.toBe(String(minion.proc.pid));
    const r = await c.saltJson(['m1', 'grains.item', 'pid', 'id']);
    expect(r.data).toEqual({ m1: { pid: minion.proc.pid, id: 'm1' } });
    // the hand-over is not passed on to the commands a job runs
    const env = await c.saltJson(['m1', 'cmd.run', 'echo "[$TSALT_HOST_GRAINS]"']);
    expect(env.data).toEqual({ m1: '[]' });
  });

  it('grains.get reads nested keys and falls back on the default', async () => {
    const r = await c.saltJson(['m2', 'grains.get', 'app:tier']);
    expect(r.data).toEqual({ m2: 'front' });
    const d = await c.saltJson(['m1', 'grains.get', 'app:tier', 'none']);
    expect(d.data).toEqual({ m1: 'none' });
    const lo = await c.saltJson(['m1', 'grains.get', 'ip4_interfaces:lo']);
    expect(lo.data.m1).toContain('127.0.0.1');
  });

  it('a grain set by grains.setval is seen by a later job', async () => {
    const set = await c.saltJson(['m1', 'grains.setval', 'role', 'web']);
    expect(set.data).toEqual({ m1: { role: 'web' } });
    const r = await c.saltJson(['m1', 'grains.get', 'role']);
    expect(r.data).toEqual({ m1: 'web' });
    // the minion reports changed grains, so the master targets by them at once
    await c.minions.get('m1')!.waitFor('grains changed: reported to the master', 10_000);
    expect((await c.saltJson(['-G', 'role:web', 'test.ping'])).data).toEqual({ m1: true });
    const del = await c.saltJson(['m1', 'grains.delkey', 'role']);
    expect(del.data.m1).toMatchObject({ result: true });
    expect((await c.saltJson(['m1', 'grains.get', 'role', 'gone'])).data).toEqual({ m1: 'gone' });
  });

  it("a minion's config grains are reported and override the grains file", async () => {
    const r = await c.saltJson(['m2', 'grains.get', 'env']);
    expect(r.data).toEqual({ m2: 'prod' });
    await c.saltJson(['m2', 'grains.setval', 'env', 'dev']);
    expect((await c.saltJson(['m2', 'grains.get', 'env'])).data).toEqual({ m2: 'prod' });
    expect((await c.saltJson(['*', 'grains.get', 'env'])).data).toEqual({ m1: '', m2: 'prod' });
  });

  it('grains.items prints with the nested outputter', async () => {
    const r = await c.salt(['m1', 'grains.item', 'id']);
    expect(r.stdout).toBe('m1:\n    ----------\n    id:\n        m1\n');
  });
});
