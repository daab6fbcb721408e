import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packIpc } from '../../kernel/util.js';
import { LightGrainsMemo } from './light-grains.js';

describe('the light listing memo', () => {
  const cachedir = mkdtempSync(join(tmpdir(), 'tsalt-light-grains-'));
  afterAll(() => rmSync(cachedir, { recursive: true, force: true }));
  const write = (id: string, grains: Record<string, unknown>, mtime: number) => {
    const dir = join(cachedir, 'minions', id);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'data.p');
    writeFileSync(file, packIpc({ grains, pillar: { secret: 'not kept' } }));
    utimesSync(file, mtime, mtime);
  };

  it('keeps the picked grains until data.p changes, and forgets a minion whose cache is gone', async () => {
    const memo = new LightGrainsMemo(cachedir);
    write('a', { os: 'Debian', osrelease: '12', kernel: 'Linux' }, 1_000_000);
    const first = await memo.get('a', ['os', 'osrelease']);
    expect(first).toEqual({ os: 'Debian', osrelease: '12' });
    // the same object again: not read a second time
    expect(await memo.get('a', ['os', 'osrelease'])).toBe(first);
    // another grain set is its own entry
    expect(await memo.get('a', ['kernel'])).toEqual({ kernel: 'Linux' });
    write('a', { os: 'Debian', osrelease: '13', kernel: 'Linux' }, 2_000_000);
    expect(await memo.get('a', ['os', 'osrelease'])).toEqual({ os: 'Debian', osrelease: '13' });
    expect(await memo.get('nosuch', ['os'])).toBeUndefined();
    rmSync(join(cachedir, 'minions', 'a'), { recursive: true });
    expect(await memo.get('a', ['os', 'osrelease'])).toBeUndefined();
    expect(memo.size).toBe(1);
  });

  it('keeps a few grain sets only', async () => {
    const memo = new LightGrainsMemo(cachedir);
    write('b', { g1: 1, g2: 2, g3: 3, g4: 4, g5: 5 }, 3_000_000);
    for (const g of ['g1', 'g2', 'g3', 'g4', 'g5'])
      expect(await memo.get('b', [g])).toEqual({ [g]: Number(g[1]) });
    expect(memo.size).toBe(4);
  });
});
