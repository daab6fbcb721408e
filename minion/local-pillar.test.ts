import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localPillar } from './local-pillar.js';

describe('masterless pillar', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-localpillar-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const quiet = { error() {}, warn() {}, debug() {} };

  it("compiles the minion's own pillar_roots for its id and grains, as salt-call --local does", async () => {
    mkdirSync(join(root, 'p'));
    writeFileSync(
      join(root, 'p', 'top.sls'),
      "base:\n  '*':\n    - common\n  'os:Debian':\n    - match: grain\n    - deb\n",
    );
    writeFileSync(join(root, 'p', 'common.sls'), "who: {{ grains['id'] }}\n");
    writeFileSync(join(root, 'p', 'deb.sls'), 'family: debian\n');
    const opts = { extra: { pillar_roots: { base: [join(root, 'p')] } } };
    expect(await localPillar(opts, 'm9', { id: 'm9', os: 'Debian' }, quiet)).toEqual({
      who: 'm9',
      family: 'debian',
    });
    expect(await localPillar(opts, 'm9', { id: 'm9', os: 'Alpine' }, quiet)).toEqual({ who: 'm9' });
  });
});
