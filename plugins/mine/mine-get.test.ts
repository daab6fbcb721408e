import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packIpc } from '../../kernel/util.js';
import { wrapAcl } from './mine-acl.js';
import { flushMine, readMine, writeMine } from './mine-bank.js';
import { gatherMine, type MineGetEnv } from './mine-get.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-mineget-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const pki = join(root, 'pki');
const cachedir = join(root, 'cache');
mkdirSync(join(pki, 'minions'), { recursive: true });
for (const id of ['web1', 'web2', 'db1', 'nomine']) writeFileSync(join(pki, 'minions', id), 'KEY');
const grains: Record<string, Record<string, unknown>> = {
  web1: { role: 'web' },
  web2: { role: 'web' },
  db1: { role: 'db' },
};
for (const [id, g] of Object.entries(grains)) {
  mkdirSync(join(cachedir, 'minions', id), { recursive: true });
  writeFileSync(join(cachedir, 'minions', id, 'data.p'), packIpc({ grains: g, pillar: { team: `t-${id}` } }));
}
writeMine(cachedir, 'web1', { ip: ['10.0.0.1'], role: 'web', secret: wrapAcl('s1', 'db1') });
writeMine(cachedir, 'web2', { ip: ['10.0.0.2'], role: 'web', secret: wrapAcl('s2', 'ghost*') });
writeMine(cachedir, 'db1', { ip: ['10.0.0.3'] });

const env = (acl: MineGetEnv['acl'] = null): MineGetEnv => ({
  targeting: {
    pki_dir: pki,
    cachedir,
    minion_data_cache: true,
    nodegroups: { webs: 'G@role:web' },
    conf_file: '',
  },
  acl,
});
const get = (load: Record<string, unknown>, acl?: MineGetEnv['acl']) =>
  gatherMine(env(acl), { id: 'db1', ...load });

describe('the mine bank (mine.p in the minion data cache)', () => {
  it('reads {} for a minion without a mine, merges nothing by itself, flushes', async () => {
    expect(await readMine(cachedir, 'nomine')).toEqual({});
    writeMine(cachedir, 'tmp1', { a: 1 });
    expect(await readMine(cachedir, 'tmp1')).toEqual({ a: 1 });
    expect(flushMine(cachedir, 'tmp1')).toBe(true);
    expect(flushMine(cachedir, 'tmp1')).toBe(false);
  });

  it('a file that is not a map reads as unusable', async () => {
    mkdirSync(join(cachedir, 'minions', 'junk'), { recursive: true });
    writeFileSync(join(cachedir, 'minions', 'junk', 'mine.p'), packIpc([1, 2]));
    expect(await readMine(cachedir, 'junk')).toBeUndefined();
  });
});

describe("gatherMine (Salt's _mine_get)", () => {
  it('one function: {minion: data}; several: {function: {minion: data}}', async () => {
    expect(await get({ tgt: '*', fun: 'ip' })).toEqual({
      db1: ['10.0.0.3'],
      web1: ['10.0.0.1'],
      web2: ['10.0.0.2'],
    });
    expect(await get({ tgt: 'web1', fun: 'ip,role' })).toEqual({
      ip: { web1: ['10.0.0.1'] },
      role: { web1: 'web' },
    });
    expect(await get({ tgt: 'web1', fun: ['ip'] })).toEqual({ ip: { web1: ['10.0.0.1'] } });
    expect(await get({ tgt: 'web1', fun: 'ip,ip' })).toEqual({ web1: ['10.0.0.1'] });
  });

  it('grain, pillar (exact), compound, nodegroup, list and pcre targets', async () => {
    expect(Object.keys(await get({ tgt: 'role:web', fun: 'ip', tgt_type: 'grain' }))).toEqual([
      'web1',
      'web2',
    ]);
    expect(Object.keys(await get({ tgt: 'role:w.b', fun: 'ip', tgt_type: 'grain_pcre' }))).toEqual([
      'web1',
      'web2',
    ]);
    expect(Object.keys(await get({ tgt: 'team:t-db1', fun: 'ip', tgt_type: 'pillar' }))).toEqual(['db1']);
    expect(await get({ tgt: 'team:t-*', fun: 'ip', tgt_type: 'pillar' })).toEqual({});
    expect(Object.keys(await get({ tgt: 'team:t-.*', fun: 'ip', tgt_type: 'pillar_pcre' }))).toEqual([
      'db1',
      'web1',
      'web2',
    ]);
    expect(
      Object.keys(await get({ tgt: 'G@role:web and not web2', fun: 'ip', tgt_type: 'compound' })),
    ).toEqual(['web1']);
    expect(Object.keys(await get({ tgt: 'webs', fun: 'ip', tgt_type: 'nodegroup' }))).toEqual([
      'web1',
      'web2',
    ]);
    expect(Object.keys(await get({ tgt: 'web2,db1', fun: 'ip', tgt_type: 'list' }))).toEqual(['web2', 'db1']);
    expect(Object.keys(await get({ tgt: '^w', fun: 'ip', tgt_type: 'pcre' }))).toEqual(['web1', 'web2']);
    // old clients send expr_form
    expect(Object.keys(await get({ tgt: 'role:db', fun: 'ip', expr_form: 'grain' }))).toEqual(['db1']);
  });

  it('an entry with allow_tgt answers only the minions it names', async () => {
    expect(await get({ tgt: 'web*', fun: 'secret' })).toEqual({ web1: 's1' });
    expect(await gatherMine(env(), { id: 'web1', tgt: 'web*', fun: 'secret' })).toEqual({});
  });

  it('the mine_get ACL', async () => {
    expect(await get({ tgt: '*', fun: 'ip,role' }, { db: ['ip'] })).toEqual({
      ip: { db1: ['10.0.0.3'], web1: ['10.0.0.1'], web2: ['10.0.0.2'] },
    });
    expect(await get({ tgt: '*', fun: 'role' }, { db: ['ip'] })).toEqual({});
    expect(await get({ tgt: '*', fun: 'ip' }, {})).toEqual({});
  });

  it("a load it cannot use gets Salt's {}", async () => {
    expect(await gatherMine(env(), { tgt: '*', fun: 'ip' })).toEqual({});
    expect(await get({ fun: 'ip' })).toEqual({});
    expect(await get({ tgt: '*', fun: 7 })).toEqual({});
    expect(await get({ tgt: '*', fun: [1] })).toEqual({});
    expect(await gatherMine(env(), { id: '../x', tgt: '*', fun: 'ip' })).toEqual({});
    await expect(get({ tgt: 'G@', fun: 'ip', tgt_type: 'compound' })).rejects.toMatchObject({
      code: 'SALT_ERR_TARGET_INVALID',
    });
  });
});
