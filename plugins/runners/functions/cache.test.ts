import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packIpc } from '../../../kernel/serial/index.js';
import { cachedBank, cachedMine } from './cache.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-cacherunner-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const pki = join(root, 'pki');
const cachedir = join(root, 'cache');
for (const id of ['web1', 'web2', 'db1']) {
  mkdirSync(join(pki, 'minions'), { recursive: true });
  writeFileSync(join(pki, 'minions', id), 'KEY');
}
for (const id of ['web1', 'db1']) {
  mkdirSync(join(cachedir, 'minions', id), { recursive: true });
  writeFileSync(
    join(cachedir, 'minions', id, 'data.p'),
    packIpc({ grains: { id, os: 'Debian', roles: [id.slice(0, 2)] }, pillar: {} }),
  );
}
const ctx = (extra: Record<string, unknown> = {}) => ({
  opts: { pki_dir: pki, cachedir, minion_data_cache: true, nodegroups: {}, conf_file: '', ...extra },
});

describe('cache runner (the master minion data cache)', () => {
  it('grains: cached grains of the targeted minions, {} for one without cache data', async () => {
    expect(await cachedBank(ctx(), 'web*', 'glob', 'grains')).toEqual({
      web1: { id: 'web1', os: 'Debian', roles: ['we'] },
      web2: {},
    });
    expect(Object.keys(await cachedBank(ctx(), '*', 'glob', 'grains'))).toEqual(['db1', 'web1', 'web2']);
    expect(await cachedBank(ctx(), ['db1'], 'list', 'grains')).toEqual({
      db1: { id: 'db1', os: 'Debian', roles: ['db'] },
    });
    // a grain target is greedy, as Salt's: minions with no cached grains are kept
    expect(await cachedBank(ctx(), 'G@roles:db', 'compound', 'grains')).toEqual({
      db1: { id: 'db1', os: 'Debian', roles: ['db'] },
      web2: {},
    });
    expect(await cachedBank(ctx(), 'nosuch*', 'glob', 'grains')).toEqual({});
  });
  it('pillar: {} per minion (no pillar sources); minion_data_cache off gives {} for all', async () => {
    expect(await cachedBank(ctx(), '*', 'glob', 'pillar')).toEqual({ db1: {}, web1: {}, web2: {} });
    expect(await cachedBank(ctx({ minion_data_cache: false }), 'web1', 'glob', 'grains')).toEqual({
      web1: {},
    });
  });

  it("mine: each targeted minion's mine, {} without one; a target matching none gives every cached minion", async () => {
    writeFileSync(join(cachedir, 'minions', 'web1', 'mine.p'), packIpc({ ip: ['10.0.0.1'] }));
    expect(await cachedMine(ctx(), 'web*', 'glob')).toEqual({ web1: { ip: ['10.0.0.1'] }, web2: {} });
    expect(await cachedMine(ctx(), 'nosuch*', 'glob')).toEqual({ db1: {}, web1: { ip: ['10.0.0.1'] } });
    expect(await cachedMine(ctx({ minion_data_cache: false }), 'web1', 'glob')).toEqual({ web1: {} });
    expect(
      await cachedMine(
        ctx({ minion_data_cache: false, extra: { enforce_mine_cache: true } }),
        'web1',
        'glob',
      ),
    ).toEqual({ web1: { ip: ['10.0.0.1'] } });
  });
});
