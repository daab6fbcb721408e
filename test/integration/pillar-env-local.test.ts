// `pillar.items pillarenv=<env>` on a masterless minion (salt-call --local), as Salt 3006 answers:
// the fresh compile of that pillarenv is merged over the pillar the minion compiled at its start
// (every pillarenv), because Salt's minion has `ssh_merge_pillar: True`; `pillar.item` and
// `pillar.get` with a pillarenv compile afresh too. Expected values are real Salt's for the same
// files (only cases whose answer does not depend on Salt's random order of pillarenvs).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tools/local-cluster.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-pillarenv-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

const files: Record<string, string> = {
  'base/top.sls': "base:\n  '*':\n    - common\n",
  'base/common.sls': 'x: base\nb: 1\nshared: {from: base, b: 1}\n',
  'dev/top.sls': "dev:\n  '*':\n    - devonly\n",
  'dev/devonly.sls': 'x: dev\nd: 1\nshared: {from: dev, d: 1}\n',
};
for (const [rel, text] of Object.entries(files)) {
  mkdirSync(join(top, rel, '..'), { recursive: true });
  writeFileSync(join(top, rel), text);
}

function conf(name: string, more = ''): string {
  const dir = join(top, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'minion'),
    `id: pm1\nfile_client: local\nroot_dir: ${dir}/root\nfile_roots: {base: [${top}/base]}\n` +
      `pillar_roots: {base: [${top}/base], dev: [${top}/dev]}\n${more}`,
  );
  return dir;
}

async function call(dir: string, ...args: string[]): Promise<unknown> {
  const r = await runCli('salt-call', ['--local', '-c', dir, '--out', 'json', ...args], 60_000);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { local: unknown }).local;
}

describe('pillarenv on a masterless minion', () => {
  const dir = conf('merge');

  it('pillar.items pillarenv=dev: dev on top of what the minion compiled at start', async () => {
    expect(await call(dir, 'pillar.items', 'pillarenv=dev')).toEqual({
      x: 'dev',
      b: 1,
      d: 1,
      shared: { from: 'dev', b: 1, d: 1 },
    });
    expect(await call(dir, 'pillar.items', 'pillarenv=base')).toEqual({
      x: 'base',
      b: 1,
      d: 1,
      shared: { from: 'base', b: 1, d: 1 },
    });
  });

  it('pillar.item and pillar.get with a pillarenv compile afresh', async () => {
    expect(await call(dir, 'pillar.item', 'x', 'pillarenv=dev')).toEqual({ x: 'dev' });
    expect(await call(dir, 'pillar.get', 'shared:from', 'pillarenv=base')).toBe('base');
  });

  it('ssh_merge_pillar: False answers the named pillarenv alone', async () => {
    const alone = conf('alone', 'ssh_merge_pillar: False\n');
    expect(await call(alone, 'pillar.items', 'pillarenv=dev')).toEqual({
      x: 'dev',
      d: 1,
      shared: { from: 'dev', d: 1 },
    });
  });
});
