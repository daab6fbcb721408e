import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fileMod from '../modules/file.js';
import { builtinStateFunctions } from '../test/support/builtin-states.js';
import { moduleCtx } from './_test-ctx.js';

// Expectations are what Salt 3006.18 returned for the same SLS (salt-call --local state.apply,
// /tmp/more16/harness.sh, cases mknod1), with the temp dir in place of Salt's. Needs root (mknod).

let dir: string;
const states = () => builtinStateFunctions(moduleCtx([fileMod]));
const root = process.getuid?.() === 0;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-t-mknod-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.runIf(root)('file.mknod state', () => {
  it('makes a fifo with its folders, a character and a block device, each with its mode', async () => {
    const s = states();
    const fifo = join(dir, 'a/b/fifo');
    expect(await s.call('file.mknod', { name: fifo, ntype: 'p', mode: '0640' }, { test: true })).toEqual({
      name: fifo,
      changes: {},
      comment: `Fifo pipe ${fifo} is set to be created`,
      result: null,
    });
    await expect(stat(join(dir, 'a'))).rejects.toThrow();
    expect(await s.call('file.mknod', { name: fifo, ntype: 'p', mode: '0640' }, { test: false })).toEqual({
      name: fifo,
      changes: { new: `Fifo pipe ${fifo} created.` },
      comment: '',
      result: true,
    });
    const f = await stat(fifo);
    expect([f.isFIFO(), (f.mode & 0o7777).toString(8)]).toEqual([true, '640']);
    const chr = join(dir, 'chr');
    const r = await s.call(
      'file.mknod',
      { name: chr, ntype: 'c', major: 1, minor: 3, mode: 660 },
      { test: false },
    );
    expect(r.changes).toEqual({ new: `Character device ${chr} created.` });
    const c = await stat(chr, { bigint: true });
    expect([c.isCharacterDevice(), c.rdev, (c.mode & 0o7777n).toString(8)]).toEqual([true, 259n, '660']);
    const blk = join(dir, 'blk');
    await s.call('file.mknod', { name: blk, ntype: 'b', major: 7, minor: 200 }, { test: false });
    const b = await stat(blk);
    expect([b.isBlockDevice(), (b.mode & 0o7777).toString(8)]).toEqual([true, '600']);
    expect(
      await s.call('file.mknod', { name: chr, ntype: 'c', major: 1, minor: 3, mode: 660 }, { test: false }),
    ).toEqual({
      name: chr,
      changes: {},
      comment: `Character device ${chr} is in the correct state`,
      result: true,
    });
  });

  it('checks the mode of an existing node and refuses what is in the way', async () => {
    const s = states();
    const fifo = join(dir, 'fifo');
    await s.call('file.mknod', { name: fifo, ntype: 'p' }, { test: false });
    const t = await s.call('file.mknod', { name: fifo, ntype: 'p', mode: '0644' }, { test: true });
    expect([t.changes, t.result]).toEqual([{ mode: '0644' }, null]);
    const r = await s.call('file.mknod', { name: fifo, ntype: 'p', mode: '0644' }, { test: false });
    expect([r.changes, r.result, r.comment]).toEqual([{ mode: '0644' }, true, '']);
    const chr = join(dir, 'chr');
    await s.call('file.mknod', { name: chr, ntype: 'c', major: 1, minor: 5 }, { test: false });
    expect(
      (await s.call('file.mknod', { name: chr, ntype: 'c', major: 1, minor: 3 }, { test: false })).comment,
    ).toBe(`Character device ${chr} exists and has a different major/minor 1/5. Refusing to continue`);
    const reg = join(dir, 'reg');
    await writeFile(reg, 'hi\n');
    expect(
      await s.call('file.mknod', { name: reg, ntype: 'c', major: 1, minor: 3 }, { test: false }),
    ).toEqual({
      name: reg,
      changes: {},
      comment: `File ${reg} exists and is not a character device. Refusing to continue`,
      result: false,
    });
    const sub = join(dir, 'adir');
    await mkdir(sub);
    expect(await s.call('file.mknod', { name: sub, ntype: 'p' }, { test: false })).toEqual({
      name: sub,
      changes: {},
      comment: `File ${sub} exists and cannot be overwritten`,
      result: false,
    });
    expect((await s.call('file.mknod', { name: join(dir, 'x'), ntype: 'z' }, { test: false })).comment).toBe(
      "Node type unavailable: 'z'. Available node types are character ('c'), block ('b'), and pipe ('p')",
    );
  });
});
