/**
 * A pillar that fails to render stops `state.*` runs as Salt 3006's `_get_pillar_errors` does:
 * ntp-formula's pillar.example repeats its top-level key, which Salt's YAML loader refuses
 * ("found conflicting ID"); the master log names the file and line, and state.apply / sls /
 * highstate / sls_id answer Salt's list with retcode 5 and run nothing, unless `force=True`.
 * (The same tree through `salt-call --local` gave byte-identical JSON from Salt 3006.18.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

const PILLAR = `ntp:
  lookup:
    client: ntp

# Example for ntp.server
ntp:
  ntpd_conf: salt://ntp/ntp.conf
`;

describe('a pillar that fails to render stops state runs (retcode 5)', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });

  beforeAll(async () => {
    const pillar = join(c.root, 'pillar');
    const states = join(c.root, 'states');
    mkdirSync(pillar, { recursive: true });
    mkdirSync(states, { recursive: true });
    writeFileSync(join(pillar, 'top.sls'), "base:\n  '*':\n    - ntp\n");
    writeFileSync(join(pillar, 'ntp.sls'), PILLAR);
    writeFileSync(join(states, 'top.sls'), "base:\n  '*':\n    - t\n");
    writeFileSync(join(states, 't.sls'), 'hello:\n  test.succeed_without_changes\n');
    Object.assign(master, { pillar_roots: { base: [pillar] }, file_roots: { base: [states] } });
    await c.startMaster();
    await c.startMinion('p1');
  }, 120_000);
  afterAll(() => c.stop());

  const refused = [
    'Pillar failed to render with the following messages:',
    "Rendering SLS 'ntp' failed. Please see master log for details.",
  ];

  it('the duplicate key is refused with its file and line in the master log', async () => {
    const r = await c.saltJson(['p1', 'pillar.items']);
    expect(r.data).toEqual({ p1: { _errors: [refused[1]] } });
    await c.master?.waitFor(
      `${join(c.root, 'pillar', 'ntp.sls')}, line 6, column 1: found conflicting ID 'ntp'`,
    );
  });

  it.each([
    [['state.apply', 't']],
    [['state.sls', 't']],
    [['state.highstate']],
    [['state.sls_id', 'hello', 't']],
  ])('%j answers the pillar errors and runs nothing', async (call) => {
    const r = await c.saltJson(['p1', ...call]);
    expect(r.data).toEqual({ p1: refused });
    expect(r.code).not.toBe(0);
  });

  it('force=True runs anyway', async () => {
    const r = await c.saltJson(['p1', 'state.apply', 't', 'force=True']);
    const ret = (r.data.p1 ?? {}) as Record<string, { result: boolean }>;
    expect(Object.values(ret).map((s) => s.result)).toEqual([true]);
  });
});
