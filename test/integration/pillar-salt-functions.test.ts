/**
 * Pillar templates call execution-module functions as Salt's do (`Pillar.__init__` loads
 * `minion_mods` with the master's options turned into the asking minion's): on the master, with
 * the minion's id and grains; `salt['pillar.get']` sees no pillar; a function that fails names
 * itself, the file and the line in `_errors`, and the master keeps serving other minions.
 * (The same SLS through `salt-call --local` against Salt 3006.18: 10 of 10 keys identical.)
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

const master: Record<string, unknown> = { pillar_safe_render_error: false };
const c = new Cluster({ master });
const pillarDir = join(c.root, 'pillar');
const marker = join(c.root, 'ran-on-master');

beforeAll(async () => {
  mkdirSync(pillarDir, { recursive: true });
  const files: Record<string, string> = {
    'top.sls': "base:\n  'pf1':\n    - fns\n  'pf2':\n    - fns\n    - bad\n",
    'fns.sls': [
      "callable: {{ salt['status.time']|default(none) is callable }}",
      "missing: {{ salt['nosuch.fn']|default(none) is callable }}",
      "in_salt: {{ 'test.ping' in salt }}",
      "not_in_salt: {{ 'nosuch.fn' in salt }}",
      "pget: {{ salt['pillar.get']('callable', 'dflt') }}",
      "items: {{ salt['pillar.items']()|tojson }}",
      "cget_id: {{ salt['config.get']('id') }}",
      "cget_fc: {{ salt['config.get']('file_client') }}",
      "master_opt: {{ salt['config.get']('pillar_roots')|tojson }}",
      "family: {{ salt['grains.filter_by']({'Debian': 'deb', 'RedHat': 'rh'}) }}",
      "cmd: {{ salt['cmd.run']('echo hi') }}",
      `touched: {{ salt['cmd.retcode']('touch ${marker}') }}`,
      '',
    ].join('\n'),
    'bad.sls': "a: 1\nb: {{ salt['test.exception']('boom') }}\n",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(pillarDir, name), text);
  Object.assign(master, { pillar_roots: { base: [pillarDir] } });
  await c.startMaster();
  await c.startMinion('pf1', { grains: { os_family: 'RedHat' } });
  await c.startMinion('pf2');
}, 120_000);
afterAll(() => c.stop());

describe('salt[...] in pillar templates', () => {
  it("runs the master's functions with the minion's id and grains", async () => {
    const r = await c.saltJson(['pf1', 'pillar.items']);
    expect(r.data.pf1).toEqual({
      callable: true,
      missing: false,
      in_salt: true,
      not_in_salt: false,
      pget: 'dflt',
      items: {},
      cget_id: 'pf1',
      cget_fc: 'local',
      master_opt: { base: [pillarDir] },
      family: 'rh',
      cmd: 'hi',
      touched: 0,
    });
    // cmd.run ran on the master as it compiled (the minion ran no job of its own)
    expect(existsSync(marker)).toBe(true);
  });

  it('a failing function names itself, the file and the line; other minions are served', async () => {
    const r = await c.saltJson(['pf2', 'pillar.items']);
    const p = r.data.pf2 as Record<string, unknown>;
    expect(p.cget_id).toBe('pf2');
    expect(p.family).toBe('deb');
    const errors = p._errors as string[];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("Rendering SLS 'bad' failed, render error:");
    expect(errors[0]).toContain(`${join(pillarDir, 'bad.sls')}, line 2`);
    expect(errors[0]).toContain("salt['test.exception'] failed: boom");
    const again = await c.saltJson(['pf1', 'pillar.item', 'cget_id']);
    expect(again.data.pf1).toEqual({ cget_id: 'pf1' });
  });
});
