// mount's vfstab, automaster and filesystems functions through a real masterless salt-call, on
// throwaway tables given by config= (expected values measured on Salt 3006.18 on Linux)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { localCaller } from '../support/local-call.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-mnttab-'));
const w = join(root, 'w');
const VFSTAB =
  '#device to mount\n/devices - /devices devfs - no -\n/dev/dsk/c0 /dev/rdsk/c0 / ufs 1 no -\nbad line\n';
const AUTO = '# map\n/../mnt/a\t-fstype=nfs,rw\tnfs:srv:/export\n\n/../mnt/b -fstype=smbfs,ro :host\nbad\n';

describe('mount tables (vfstab, automaster, filesystems)', () => {
  const call = localCaller(root, 'mnttab1');
  const vf = join(w, 'vfstab');
  const am = join(w, 'auto');
  beforeEach(() => {
    mkdirSync(w, { recursive: true });
    writeFileSync(vf, VFSTAB);
    writeFileSync(am, AUTO);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('set_vfstab adds, changes and keeps Solaris-format lines', async () => {
    expect((await call('mount.set_vfstab', '/mnt/x', '/dev/dsk/c1', 'ufs', `config=${vf}`)).local).toBe(
      'new',
    );
    expect(readFileSync(vf, 'utf8')).toBe(
      `${VFSTAB}/dev/dsk/c1 -   /mnt/x              ufs      -   yes    -\n`,
    );
    const args = ['/', '/dev/dsk/c0', 'ufs', 'device_fsck=/dev/rdsk/c0', 'pass_fsck=1', 'mount_at_boot=no'];
    expect((await call('mount.set_vfstab', ...args, `config=${vf}`)).local).toBe('present');
    expect((await call('mount.set_vfstab', ...args, 'opts=rw', `config=${vf}`, 'test=True')).local).toBe(
      'change',
    );
    expect(readFileSync(vf, 'utf8')).toContain('/dev/dsk/c1'); // test mode wrote nothing more
    expect(readFileSync(vf, 'utf8')).not.toContain(' rw\n');
    expect((await call('mount.set_vfstab', '/devices', '/dev2', 'devfs', `config=${vf}`)).local).toBe(
      'change',
    );
    expect(readFileSync(vf, 'utf8')).toContain('/dev2       -   /devices            devfs    -   yes    -\n');
    const bad = await call('mount.set_vfstab', '/d', '/x', 'ufs', `config=${join(w, 'none')}`);
    expect(bad.output).toContain(`Bad config file "${join(w, 'none')}"`);
  });

  it('vfstab and rm_vfstab read and edit the table as the fstab off Solaris', async () => {
    writeFileSync(vf, '/dev/sda1 / ext4 defaults 0 1\nproc /proc proc defaults 0 0\n');
    const r = await call('mount.vfstab', `config=${vf}`);
    expect(r.local).toEqual({
      '/': { device: '/dev/sda1', fstype: 'ext4', opts: ['defaults'], dump: '0', pass: '1' },
      '/proc': { device: 'proc', fstype: 'proc', opts: ['defaults'], dump: '0', pass: '0' },
    });
    expect((await call('mount.rm_vfstab', '/proc', 'proc', `config=${vf}`)).local).toBe(true);
    expect(readFileSync(vf, 'utf8')).toBe('/dev/sda1 / ext4 defaults 0 1\n');
  });

  it('automaster lists, set_automaster adds and changes, rm_automaster removes', async () => {
    expect((await call('mount.automaster', `config=${am}`)).local).toEqual({
      '/mnt/a': { device: 'srv', fstype: '-fstype=nfs', opts: ['rw'] },
      '/mnt/b': { device: 'host', fstype: '-fstype=smbfs', opts: ['ro'] },
    });
    expect(
      (await call('mount.set_automaster', '/mnt/a', 'srv:/export', 'nfs', 'opts=rw', `config=${am}`)).local,
    ).toBe('present');
    expect((await call('mount.set_automaster', '/mnt/c', 'srv2:/e', 'nfs', `config=${am}`)).local).toBe(
      'new',
    );
    expect(readFileSync(am, 'utf8')).toBe(`${AUTO}/../mnt/c\t-fstype=nfs,\tnfs:srv2:/e\n`);
    expect(
      (await call('mount.set_automaster', '/mnt/a', 'srv:/o', 'nfs', 'opts=rw', `config=${am}`)).local,
    ).toBe('change');
    expect(readFileSync(am, 'utf8')).toContain('/../mnt/a\t-fstype=nfs,rw\tnfs:srv:/o\n');
    // Salt then runs `automount -cv` (macOS): where it is missing, the call fails after the edit
    const rm = await call('mount.rm_automaster', '/mnt/b', '', `config=${am}`);
    expect(readFileSync(am, 'utf8')).not.toContain('/mnt/b');
    if (which('automount')) expect(rm.local).toBe(true);
    else expect(rm.output).toContain("Unable to run command '['automount', '-cv']'");
  });

  it('the AIX filesystems functions answer as Salt does off AIX', async () => {
    const cfg = `config=${vf}`;
    expect((await call('mount.filesystems', cfg)).local).toEqual({});
    expect((await call('mount.set_filesystems', '/mnt/a', '/dev/x', 'jfs2', cfg)).local).toBe(null);
    expect((await call('mount.rm_filesystems', '/mnt/a', '/dev/x', cfg)).local).toBe(false);
  });
});
