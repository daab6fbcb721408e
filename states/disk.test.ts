import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cmdMod from '../modules/cmd.js';
import diskMod from '../modules/disk.js';
import statusMod from '../modules/status.js';
import type { StateFunctions } from '../plugins/states/index.js';
import { builtinStateFunctions } from '../test/support/builtin-states.js';
import { moduleCtx } from './_test-ctx.js';

// A throwaway 10 MiB tmpfs holding 3,500,000 bytes (df: 3420 KB used, 6820 available, 34%):
// fixed figures. Expectations: Salt 3006.18's returns on the same mount.
const can = process.getuid?.() === 0 && process.platform === 'linux';
let dir: string;
let mnt: string;
let states: StateFunctions;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-disk-state-'));
  mnt = path.join(dir, 'mnt');
  await mkdir(mnt);
  states = builtinStateFunctions(moduleCtx([cmdMod, diskMod, statusMod]));
  if (!can) return;
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=10M', 'tsalt-t-disk', mnt]);
  await mkdir(path.join(mnt, 'sub'));
  await writeFile(path.join(mnt, 'sub', 'fill'), Buffer.alloc(3_500_000));
});
afterAll(async () => {
  if (can) execFileSync('umount', [mnt]);
  await rm(dir, { recursive: true, force: true });
});

const status = (kw: Record<string, unknown>, test = false) => states.call('disk.status', kw, { test });
const comment = async (kw: Record<string, unknown>) => (await status({ name: mnt, ...kw })).comment;

describe.skipIf(!can)('disk.status', () => {
  it('checks a mount point in percent, with or without %, used or free', async () => {
    const ok = await status({ name: mnt, maximum: 90, minimum: 10 }, true);
    expect(ok).toMatchObject({ result: true, changes: {}, comment: 'Disk used space in acceptable range' });
    expect(ok.data).toEqual({
      filesystem: 'tsalt-t-disk',
      '1K-blocks': '10240',
      used: '3420',
      available: '6820',
      capacity: '34%',
    });
    expect(await comment({ maximum: '20%' })).toBe('Disk used space is above maximum of 20 % at 34 %');
    expect(await comment({ minimum: ' 70 %', free: true })).toBe(
      'Disk available space is below minimum of 70 % at 66 %',
    );
    expect(await comment({ maximum: 50, free: true })).toBe(
      'Disk available space is above maximum of 50 % at 66 %',
    );
    expect(await comment({ minimum: 50 })).toBe('Disk used space is below minimum of 50 % at 34 %');
    expect(await comment({ maximum: 30.9 })).toBe('Disk used space is above maximum of 30 % at 34 %');
    expect((await status({ name: mnt, minimum: 50 })).result).toBe(false);
  });

  it('checks KB with absolute=True', async () => {
    expect(await comment({ maximum: '3000KB', absolute: true })).toBe(
      'Disk used space is above maximum of 3000 KB at 3420 KB',
    );
    expect(await comment({ minimum: 8000, absolute: true, free: true })).toBe(
      'Disk available space is below minimum of 8000 KB at 6820 KB',
    );
    expect(await status({ name: mnt, minimum: '1000 KB', maximum: 5000, absolute: true })).toMatchObject({
      result: true,
    });
  });

  it('refuses bad thresholds before reading the disk', async () => {
    const bad = await status({ name: mnt, maximum: 150, minimum: -1 });
    expect(bad).toEqual({
      name: mnt,
      result: false,
      changes: {},
      data: {},
      comment: 'maximum must be in the range [0, 100] minimum must be in the range [0, 100] ',
    });
    expect(await comment({ maximum: 'lots' })).toBe('maximum must be an integer ');
    expect(await comment({ maximum: '50%', absolute: true })).toBe('maximum must be an integer ');
    expect(await comment({ maximum: 40, minimum: 40 })).toBe('minimum must be less than maximum ');
  });

  it('checks a directory that is not a mount point with status.diskusage', async () => {
    const sub = path.join(mnt, 'sub');
    const r = await status({ name: sub, maximum: 30 });
    expect(r).toMatchObject({
      result: false,
      comment: 'Disk used space is above maximum of 30 % at 33.4 %',
      data: { [sub]: { total: 10485760 } },
    });
    expect((await status({ name: sub, minimum: 70, free: true })).comment).toBe(
      'Disk available space is below minimum of 70 % at 66.6 %',
    );
    const gone = path.join(dir, 'nope');
    expect(await status({ name: gone, maximum: 50 })).toEqual({
      name: gone,
      result: false,
      changes: {},
      data: {},
      comment: `Disk mount ${gone} not present. Directory ${gone} does not exist or is not a directory`,
    });
  });
});
