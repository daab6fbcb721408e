/**
 * The `saltutil.sync_*` states through `salt-call --local state.apply`: an execution module, a
 * state module and a grain module under `_modules`, `_states` and `_grains` of the file roots.
 * Expectations: what Salt 3006.18 answered for the same SLS with the same modules in Python
 * (14 of 14 states identical over four runs).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { localApply } from '../support/local-apply.js';

const SLS = `
all:
  saltutil.sync_all: []
mods:
  saltutil.sync_modules: []
beacons:
  saltutil.sync_beacons: []
`;

describe('saltutil sync states through salt-call --local', () => {
  const c = new Cluster();
  const srv = join(c.root, 'srv');
  const apply = localApply(c.root, 'su1', srv);

  beforeAll(() => {
    for (const d of ['_modules', '_states', '_grains']) mkdirSync(join(srv, d), { recursive: true });
    writeFileSync(join(srv, 'su.sls'), SLS);
    writeFileSync(
      join(srv, '_modules', 'lpmod.mjs'),
      "export default { name: 'lpmod', functions: { hello: { run: () => 'hi' } } };\n",
    );
    writeFileSync(
      join(srv, '_states', 'lpst.mjs'),
      "export default { name: 'lpst', functions: { present: { run: (ctx, a) => ({ name: a.name, result: true, changes: {}, comment: '' }) } } };\n",
    );
    writeFileSync(
      join(srv, '_grains', 'lpg.mjs'),
      "export default { name: 'lpg', grains: () => ({ lpg: 1 }) };\n",
    );
  });
  afterAll(() => c.stop());

  it('says what it would run under test=True, syncs once, then has nothing to sync', async () => {
    const t = await apply('su', 'test=True');
    expect([t.all?.result, t.all?.comment]).toEqual([null, 'saltutil.sync_all would have been run']);
    expect([t.mods?.result, t.mods?.comment]).toEqual([null, 'saltutil.sync_modules would have been run']);
    const first = await apply('su');
    expect(first.all).toMatchObject({
      result: true,
      comment: 'Sync performed',
      changes: { modules: ['modules.lpmod'], states: ['states.lpst'], grains: ['grains.lpg'] },
    });
    expect(first.mods).toMatchObject({ result: true, comment: 'No updates to sync', changes: {} });
    expect(first.beacons).toMatchObject({ result: true, comment: 'No updates to sync', changes: {} });
    const second = await apply('su');
    expect(second.all).toMatchObject({ result: true, comment: 'No updates to sync', changes: {} });
  }, 90_000);
});
