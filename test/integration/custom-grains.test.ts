import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

const ROLES = "export default { name: 'roles', grains: () => ({ role: 'api', tier: 'custom' }) };\n";

describe('custom grain modules end to end', () => {
  const c = new Cluster();
  beforeAll(async () => {
    await c.startMaster();
    // <root_dir>/var/cache/salt/minion/extmods: the default extension_modules under the minion's root_dir
    const extGrains = join(c.root, 'minions', 'm1', 'var', 'cache', 'salt', 'minion', 'extmods', 'grains');
    mkdirSync(extGrains, { recursive: true });
    writeFileSync(join(extGrains, 'roles.mjs'), ROLES);
    writeFileSync(
      join(extGrains, 'broken.mjs'),
      "export default { name: 'broken', grains: () => { throw new Error('no'); } };\n",
    );
    const extra = join(c.root, 'grains-extra');
    mkdirSync(extra, { recursive: true });
    writeFileSync(join(extra, 'roles.mjs'), ROLES);
    await c.startMinion('m1');
    // config `grains` win over custom grain modules
    await c.startMinion('m2', { grains_dirs: [extra], grains: { tier: 'config' } });
  });
  afterAll(() => c.stop());

  it('a grain from <extension_modules>/grains is seen by jobs and targeting', async () => {
    expect((await c.saltJson(['m1', 'grains.get', 'role'])).data).toEqual({ m1: 'api' });
    expect((await c.saltJson(['-G', 'role:api', 'test.ping'])).data).toEqual({ m1: true, m2: true });
  });

  it('grains_dirs are searched, and config grains override custom ones', async () => {
    const r = await c.saltJson(['m2', 'grains.item', 'role', 'tier']);
    expect(r.data).toEqual({ m2: { role: 'api', tier: 'config' } });
    expect((await c.saltJson(['m1', 'grains.get', 'tier'])).data).toEqual({ m1: 'custom' });
  });
});

describe('saltutil.sync_grains: grain modules from salt://_grains', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  beforeAll(async () => {
    const grains = join(c.root, 'srv', 'salt', '_grains');
    master.file_roots = { base: [join(c.root, 'srv', 'salt')] };
    mkdirSync(grains, { recursive: true });
    writeFileSync(join(grains, 'dc.mjs'), "export default { name: 'dc', grains: () => ({ dc: 'east' }) };\n");
    await c.startMaster();
    await c.startMinion('m1');
  });
  afterAll(() => c.stop());

  it('syncs into extension_modules/grains; new job processes see the grain', async () => {
    expect((await c.saltJson(['m1', 'grains.get', 'dc'])).data).toEqual({ m1: '' });
    expect((await c.saltJson(['m1', 'saltutil.sync_grains'])).data).toEqual({ m1: ['grains.dc'] });
    expect((await c.saltJson(['m1', 'grains.get', 'dc'])).data).toEqual({ m1: 'east' });
    // the minion recomputes its own grains after the sync and reports them: targeting follows
    await c.minions.get('m1')!.waitFor('grains changed: reported to the master', 10_000);
    expect((await c.saltJson(['-G', 'dc:east', 'test.ping'])).data).toEqual({ m1: true });
    const all = (await c.saltJson(['m1', 'saltutil.sync_all'])).data.m1;
    expect(all).toMatchObject({ modules: [], grains: [] });
  });
});
