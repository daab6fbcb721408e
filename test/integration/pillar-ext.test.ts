import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCall, localCaller } from '../support/local-call.js';

// pillar.ext on a masterless minion with on_demand_ext_pillar: [cmd_yaml, libvirt]: Salt 3006.18
// gave these three answers for the same files (3 of 3 identical).
describe('pillar.ext: an on-demand external pillar', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-t-pillar-ext-'));
  let call: LocalCall;
  beforeAll(() => {
    mkdirSync(join(root, 'pillar'), { recursive: true });
    writeFileSync(join(root, 'pillar', 'top.sls'), "base:\n  '*':\n    - p\n");
    writeFileSync(join(root, 'pillar', 'p.sls'), 'from_sls: 1\n');
    call = localCaller(root, 'pe1');
    appendFileSync(join(call.etc, 'minion'), 'on_demand_ext_pillar: [cmd_yaml, libvirt]\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('compiles the pillar with the allowed ext_pillar after the configured ones', async () => {
    expect((await call('pillar.ext', '{"cmd_yaml": "echo ext_a: 1"}')).local).toEqual({
      from_sls: 1,
      ext_a: 1,
    });
    expect((await call('pillar.ext', '{"cmd_yaml": "echo from_sls: 2"}')).local).toEqual({ from_sls: 2 });
  }, 60_000);

  it('leaves out (and logs) one on_demand_ext_pillar does not allow', async () => {
    const r = await call('pillar.ext', '{"nope": 1}', '-l', 'error');
    expect(r.local).toEqual({ from_sls: 1 });
    expect(r.output).toContain(
      'The following ext_pillar modules are not allowed for on-demand pillar data: nope. Valid on-demand ext_pillar modules are: cmd_yaml, libvirt.',
    );
  }, 60_000);
});
