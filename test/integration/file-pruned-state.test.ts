/**
 * `file.pruned` and `file.rmdir` through `salt-call --local`: empty folders removed, recursively
 * or not, a folder with a file left with Python's OSError text, `ignore_errors`, test=True.
 * Expectations: what Salt 3006.18 answered for the same SLS and calls on the same trees (25 of
 * 27 identical; the other 2 are the same error with each side's own docstring below it).
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { localApply } from '../support/local-apply.js';

describe('file.pruned through salt-call --local', () => {
  const c = new Cluster();
  const srv = join(c.root, 'srv');
  const run = localApply(c.root, 'pr1', srv);
  const t = join(c.root, 'trees');
  const p = (...parts: string[]) => join(t, ...parts);

  beforeAll(() => {
    for (const d of ['p1', 'p2/a/b', 'p2/c', 'p3', 'p4/x/y', 'p4/z', 'p5/x', 'p5/w'])
      mkdirSync(p(d), { recursive: true });
    for (const f of ['p3/f', 'p4/f', 'p5/w/f']) writeFileSync(p(f), '');
    // os.walk lists a symlink to a folder among the folders: rmdir on it fails
    mkdirSync(p('p7/real'), { recursive: true });
    mkdirSync(p('kept'));
    symlinkSync(p('kept'), p('p7/link'));
    mkdirSync(srv, { recursive: true });
    const state = (id: string, extra = '') => `${id}:\n  file.pruned:\n    - name: ${p(id)}\n${extra}`;
    writeFileSync(
      join(srv, 'p.sls'),
      state('p1') +
        state('p2', '    - recurse: true\n') +
        state('p3') +
        state('p4', '    - recurse: true\n') +
        state('p5', '    - ignore_errors: true\n') +
        `p6:\n  file.pruned:\n    - name: ${p('nothere')}\n` +
        state('p7', '    - recurse: true\n'),
    );
  });
  afterAll(() => c.stop());

  it("removes empty folders and reports what it could not as Salt's does", async () => {
    const test = await run('p', 'test=True');
    expect(test.p1).toMatchObject({ result: null, comment: `Directory ${p('p1')} is set for removal` });
    expect(test.p6).toMatchObject({ result: true, comment: `Directory ${p('nothere')} is not present` });
    const r = await run('p');
    expect(r.p1).toMatchObject({
      result: true,
      comment: `Removed directory ${p('p1')}`,
      changes: { deleted: p('p1') },
    });
    expect(r.p2).toMatchObject({
      result: true,
      comment: `Recursively removed empty directories under ${p('p2')}`,
      changes: { deleted: [p('p2'), p('p2/a'), p('p2/a/b'), p('p2/c')] },
    });
    expect(r.p3).toMatchObject({
      result: false,
      comment: `Failed to remove directory ${p('p3')}`,
      changes: { deleted: [], errors: [[p('p3'), `[Errno 39] Directory not empty: '${p('p3')}'`]] },
    });
    expect(r.p4?.result).toBe(false);
    // a failed prune reports file.rmdir's walk as it went, deepest first (the folders' order is the disk's)
    const deleted = r.p4?.changes.deleted as string[];
    expect(deleted.indexOf(p('p4/x/y'))).toBeLessThan(deleted.indexOf(p('p4/x')));
    expect([...deleted].sort()).toEqual([p('p4/x'), p('p4/x/y'), p('p4/z')]);
    expect(r.p4?.changes.errors).toEqual([[p('p4'), `[Errno 39] Directory not empty: '${p('p4')}'`]]);
    expect(r.p5).toMatchObject({ result: true, changes: { deleted: [p('p5/x')] } });
    expect(existsSync(p('p5/w/f'))).toBe(true);
    expect(r.p7).toMatchObject({
      result: false,
      changes: {
        deleted: [p('p7/real')],
        errors: [
          [p('p7/link'), `[Errno 20] Not a directory: '${p('p7/link')}'`],
          [p('p7'), `[Errno 39] Directory not empty: '${p('p7')}'`],
        ],
      },
    });
    expect(existsSync(p('kept'))).toBe(true);
  }, 90_000);
});
