import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

// A glob that skips minions whose `quiet` grain is set, and a new `role` target type.
const GLOB = `export default {
  name: 'glob',
  match(tgt, ctx) {
    if (ctx.grains.quiet === true) return false;
    return tgt === '*' || tgt === ctx.id;
  },
};
`;
const ROLE = "export default { name: 'role', match: (tgt, ctx) => ctx.grains.role === tgt };\n";

describe('matchers: salt://_matchers synced into a minion take the place of a target type', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  beforeAll(async () => {
    const dir = join(c.root, 'srv', 'salt', '_matchers');
    master.file_roots = { base: [join(c.root, 'srv', 'salt')] };
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'glob.mjs'), GLOB);
    writeFileSync(join(dir, 'role.mjs'), ROLE);
    await c.startMaster();
    await c.startMinion('m1', { grains: { quiet: true, role: 'web' } });
    await c.startMinion('m2', { grains: { role: 'db' } });
  }, 120_000);
  afterAll(() => c.stop());

  it('before the sync the built-in glob answers; after it, the custom one, in publishes and compound words', async () => {
    expect((await c.saltJson(['*', 'test.ping'])).data).toEqual({ m1: true, m2: true });
    // refresh=True: Salt's sync_matchers defaults to refresh=False (the matchers load at the next refresh)
    expect((await c.saltJson(['m1', 'saltutil.sync_matchers', 'refresh=True'])).data).toEqual({
      m1: ['matchers.glob', 'matchers.role'],
    });
    await c.minions.get('m1')!.waitFor('custom matchers loaded', 20_000);
    const after = await c.saltJson(['-t', '5', '*', 'test.ping']);
    expect(after.data.m2).toBe(true);
    // m1 no longer answers `*`: the master expected it, so Salt's "did not return"
    expect(String(after.data.m1)).toMatch(/^Minion did not return/);
    const compound = await c.saltJson(['-t', '5', '-C', 'm* and G@role:*', 'test.ping']);
    expect(compound.data.m2).toBe(true);
    expect(String(compound.data.m1)).toMatch(/^Minion did not return/);
  }, 120_000);

  it('match.* and match.filter_by see the custom types on the synced minion only', async () => {
    const byRole = await c.saltJson([
      '-L',
      'm1,m2',
      'match.filter_by',
      '{web: front, default: other}',
      'tgt_type=role',
    ]);
    expect(byRole.data.m1).toBe('front');
    // m2 has no role matcher: Salt's error for a type it does not know
    expect(String(byRole.data.m2)).toMatch(/role/);
    expect((await c.saltJson(['-L', 'm1', 'match.glob', '*'])).data).toEqual({ m1: false });
  }, 60_000);
});
