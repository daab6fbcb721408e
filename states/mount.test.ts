import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cmdMod from '../modules/cmd.js';
import mountMod from '../modules/mount.js';
import { moduleCtx, runState } from './_test-ctx.js';
import mount from './mount.js';

// A real tmpfs under a temp dir and a throwaway fstab (`config=`); expectations: Salt 3006.18's
// returns for the same steps (tools: /tmp/smcmp-h/run.py in the session's report).
let dir: string;
let fstab: string;
let ctx: ReturnType<typeof moduleCtx>;
const st = (fn: string, kw: Record<string, unknown>, test = false) => runState(mount, fn, kw, { ctx, test });
const isRoot = process.getuid?.() === 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-mount-'));
  fstab = path.join(dir, 'fstab');
  await writeFile(fstab, '# test\nproc /proc proc defaults 0 0\n');
  ctx = moduleCtx([mountMod, cmdMod], { opts: { cachedir: dir } });
});
afterAll(async () => {
  await ctx.call('mount.umount', [path.join(dir, 'mnt')]).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe.runIf(isRoot)('mount states on a tmpfs', () => {
  it('mounts, persists, remounts on changed options and unmounts', async () => {
    const mnt = path.join(dir, 'mnt');
    const kw = {
      name: `${mnt}/`,
      device: 'tmpfs',
      fstype: 'tmpfs',
      mkmnt: true,
      opts: 'size=1m',
      config: fstab,
    };
    expect(await st('mounted', kw, true)).toEqual({
      name: `${mnt}/`,
      changes: {},
      result: null,
      comment: `${mnt} would be created and mounted`,
    });
    expect(await st('mounted', kw)).toEqual({
      name: `${mnt}/`,
      changes: { mount: true, persist: 'new' },
      result: true,
      comment: 'Target was successfully mounted. Added new entry to the fstab.',
    });
    expect(await readFile(fstab, 'utf8')).toBe(
      `# test\nproc /proc proc defaults 0 0\ntmpfs\t\t${mnt}\ttmpfs\tsize=1m\t0 0\n`,
    );
    expect((await st('mounted', kw)).comment).toBe(
      'Target was already mounted. Entry already exists in the fstab.',
    );
    const changed = { ...kw, opts: 'size=2m,noexec' };
    expect(await st('mounted', changed, true)).toMatchObject({
      result: null,
      comment: 'Remount would be forced because options (size=1m)changed', // Salt's missing space
    });
    expect(await st('mounted', changed)).toEqual({
      name: `${mnt}/`,
      changes: { umount: 'Forced remount because options (size=1024k) changed', persist: 'update' },
      result: true,
      comment: 'Target was already mounted. Updated the entry in the fstab.',
    });
    expect(
      await st('mod_watch', {
        name: mnt,
        sfun: 'mounted',
        device: 'tmpfs',
        fstype: 'tmpfs',
        opts: 'size=2m',
      }),
    ).toEqual({ name: mnt, changes: {}, result: true, comment: `${mnt} remounted` });
    expect(await st('unmounted', { name: mnt, config: fstab, persist: true })).toEqual({
      name: mnt,
      changes: { umount: true, persist: 'purged' },
      result: true,
      comment: 'Target was successfully unmounted. Removed target from fstab',
    });
    expect(await readFile(fstab, 'utf8')).toBe('# test\nproc /proc proc defaults 0 0\n');
  });

  it('fstab_present and fstab_absent edit the throwaway fstab', async () => {
    const kw = { name: '/dev/sdz9', fs_file: '/srv/x/', fs_vfstype: 'ext4', mount: false, config: fstab };
    expect(await st('fstab_present', kw)).toEqual({
      name: '/dev/sdz9',
      result: true,
      changes: { persist: 'new' },
      comment: [`/srv/x entry added in ${fstab}.`],
    });
    expect((await st('fstab_present', { ...kw, fs_mntops: 'noatime' })).changes).toEqual({
      persist: 'change',
    });
    expect(await st('fstab_absent', { name: '/dev/sdz9', fs_file: '/srv/x', config: fstab })).toEqual({
      name: '/dev/sdz9',
      result: true,
      changes: { persist: 'removed' },
      comment: [`/srv/x entry removed from ${fstab}.`],
    });
  });
});
