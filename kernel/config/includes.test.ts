import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { glob, mergeSaltOptions, readIncludes } from './includes.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-inc-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('glob (Python glob.glob)', () => {
  it('matches wildcards in any segment, skips hidden names, checks literal paths exist', async () => {
    await mkdir(join(dir, 'master.d'));
    await mkdir(join(dir, 'sub', 'a'), { recursive: true });
    for (const name of ['b.conf', 'a.conf', '.hidden.conf', 'c.txt'])
      await writeFile(join(dir, 'master.d', name), '');
    await writeFile(join(dir, 'sub', 'a', 'x.conf'), '');
    expect((await glob(join(dir, 'master.d/*.conf'))).sort()).toEqual([
      join(dir, 'master.d/a.conf'),
      join(dir, 'master.d/b.conf'),
    ]);
    expect(await glob(join(dir, 'master.d/[!a]*.conf'))).toEqual([join(dir, 'master.d/b.conf')]);
    expect(await glob(join(dir, 'sub/*/x.conf'))).toEqual([join(dir, 'sub/a/x.conf')]);
    expect(await glob(join(dir, 'sub/*/missing.conf'))).toEqual([]);
    expect(await glob(join(dir, 'master.d/a.conf'))).toEqual([join(dir, 'master.d/a.conf')]);
    expect(await glob(join(dir, 'nope/*.conf'))).toEqual([]);
  });
});

describe('mergeSaltOptions (Salt dictupdate.update, merge_lists=True)', () => {
  it('merges mappings recursively and lists without duplicates', () => {
    const merged = mergeSaltOptions(
      { a: { x: 1, y: [1, 2] }, b: [1], c: 'old' },
      { a: { y: [2, 3], z: 2 }, b: [{ k: 1 }], c: 'new' },
    );
    expect(merged).toEqual({ a: { x: 1, y: [1, 2, 3], z: 2 }, b: [1, { k: 1 }], c: 'new' });
  });
});

describe('readIncludes', () => {
  it('reads matches in sorted order, later files win, nested include is relative to its file', async () => {
    await mkdir(join(dir, 'master.d'));
    await mkdir(join(dir, 'more'));
    await writeFile(join(dir, 'master.d', '20-b.conf'), 'timeout: 20\nnodegroups:\n  b: b*\n');
    await writeFile(
      join(dir, 'master.d', '10-a.conf'),
      'timeout: 10\nworker_threads: 3\nnodegroups:\n  a: a*\n',
    );
    await writeFile(join(dir, 'master.d', '30-c.conf'), 'include: ../more/*.yml\nshow_jid: false\n');
    await writeFile(join(dir, 'more', 'x.yml'), 'show_jid: true\n');
    const result = await readIncludes('master.d/*.conf', dir);
    expect(result.options).toEqual({
      timeout: 20,
      worker_threads: 3,
      nodegroups: { a: 'a*', b: 'b*' },
      include: '../more/*.yml',
      show_jid: true,
    });
    expect(result.files.map((f) => f.path)).toEqual([
      join(dir, 'master.d/10-a.conf'),
      join(dir, 'master.d/20-b.conf'),
      join(dir, 'master.d/30-c.conf'),
      join(dir, 'more/x.yml'),
    ]);
    expect(result.unmatched).toEqual([]);
  });

  it('reports patterns that match nothing and survives include cycles', async () => {
    await writeFile(join(dir, 'a.conf'), 'include: a.conf\ntimeout: 1\n');
    const result = await readIncludes(['a.conf', 'none/*.conf'], dir);
    expect(result.options.timeout).toBe(1);
    expect(result.unmatched).toEqual(['none/*.conf']);
  });
});
