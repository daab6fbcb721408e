import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import disk from './disk.js';
import mount from './mount.js';

const ctx = fakeCtx({ grains: { kernel: 'Linux' } });

describe('disk and mount (real df, /proc/self/mounts)', () => {
  it('disk.usage, inodeusage and percent key by mount point with Salt field names', async () => {
    const usage = (await invoke(disk, 'usage', [], ctx)).value as Record<string, Record<string, string>>;
    expect(Object.keys(usage['/'] ?? {}).sort()).toEqual([
      '1K-blocks',
      'available',
      'capacity',
      'filesystem',
      'used',
    ]);
    expect(usage['/']!.capacity).toMatch(/^\d+%$/);
    const inodes = (await invoke(disk, 'inodeusage', [], ctx)).value as Record<
      string,
      Record<string, string>
    >;
    expect(Object.keys(inodes['/'] ?? {}).sort()).toEqual(['filesystem', 'free', 'inodes', 'use', 'used']);
    expect((await invoke(disk, 'percent', ['/'], ctx)).value).toMatch(/^\d+%$/);
    expect((await invoke(disk, 'percent', ['/no/such/mount'], ctx)).value).toEqual({});
    await expect(invoke(disk, 'usage', ['z'], ctx)).rejects.toThrow('Invalid flag passed to disk.usage');
  });

  it('mount.active, is_mounted, umount of nothing, fstab of a temp file', async () => {
    const active = (await invoke(mount, 'active', [], ctx)).value as Record<string, Record<string, unknown>>;
    expect(active['/proc']?.fstype).toBe('proc');
    expect(Array.isArray(active['/proc']?.opts)).toBe(true);
    expect((await invoke(mount, 'is_mounted', ['/proc'], ctx)).value).toBe(true);
    expect((await invoke(mount, 'is_mounted', ['/nonexistent'], ctx)).value).toBe(false);
    expect((await invoke(mount, 'umount', ['/nonexistent'], ctx)).value).toBe(
      '/nonexistent does not have anything mounted',
    );
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-fstab-'));
    try {
      writeFileSync(
        join(dir, 'fstab'),
        '# comment\nUUID=abc / ext4 errors=remount-ro 0 1\n/dev/sdb1 /data xfs defaults\n/dev/sdc1 /data xfs defaults 0 2\nbad line\n',
      );
      expect((await invoke(mount, 'fstab', [join(dir, 'fstab')], ctx)).value).toEqual({
        '/': { device: 'UUID=abc', fstype: 'ext4', opts: ['errors=remount-ro'], dump: '0', pass: '1' },
        '/data': { device: '/dev/sdb1', fstype: 'xfs', opts: ['defaults'], dump: '0', pass: '0' },
        '/data_': { device: '/dev/sdc1', fstype: 'xfs', opts: ['defaults'], dump: '0', pass: '2' },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
