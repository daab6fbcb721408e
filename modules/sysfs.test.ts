import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { invoke } from './_fake-ctx.js';
import sysfs from './sysfs.js';

// Read-only use of this machine's /sys (the loopback interface); expectations as Salt 3006.18's
// sysfs module gives them. Writing is tested only where it must fail: no attribute is throwaway.
const call = async (fun: string, arg: unknown[]) => (await invoke(sysfs, fun, arg)).value;
const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const onLinux = process.platform === 'linux';

describe.skipIf(!onLinux)('sysfs', () => {
  it('resolves keys under /sys and nothing outside it', async () => {
    expect(await call('target', ['class/net/lo'])).toBe('/sys/devices/virtual/net/lo');
    expect(await call('target', ['class/net/lo', kw({ full: false })])).toBe('lo');
    expect(await call('target', ['kernel/tsalt-nope'])).toBe(false);
    // Salt's joins an absolute key to /sys as itself and reads any file; tsalt's stays in /sys
    expect(await call('target', ['/etc/hostname'])).toBe(false);
    expect(await call('read', ['../etc/hostname'])).toBe(false);
  });

  it('reads numbers as numbers, text as text, a directory as a tree, a list under root', async () => {
    expect(await call('read', ['class/net/lo/mtu'])).toBe(
      Number(readFileSync('/sys/class/net/lo/mtu', 'utf8').trim()),
    );
    expect(await call('read', ['class/net/lo/address'])).toBe('00:00:00:00:00:00');
    const stats = (await call('read', ['class/net/lo/statistics'])) as Record<string, unknown>;
    expect(typeof stats.rx_bytes).toBe('number');
    const tree = (await call('read', ['class/net/lo'])) as Record<string, Record<string, unknown>>;
    expect(tree.statistics?.tx_packets).toEqual(expect.any(Number));
    expect(await call('read', [['mtu', 'address', 'nope'], kw({ root: 'class/net/lo' })])).toEqual({
      mtu: expect.any(Number),
      address: '00:00:00:00:00:00',
    });
    expect(await call('attr', ['class/net/lo'])).toBe('/sys/devices/virtual/net/lo');
    expect(await call('attr', ['class/net/lo/address'])).toBe('00:00:00:00:00:00');
  });

  it('lists interfaces by their owner bits, without following links', async () => {
    const i = (await call('interfaces', ['class/net/lo'])) as { r: string[]; w: string[]; rw: string[] };
    expect(i.rw).toContain('mtu');
    expect(i.r).toContain('address');
    expect(i.r).toContain('statistics/rx_bytes');
    expect([...i.r, ...i.rw].some((p) => p.startsWith('subsystem/'))).toBe(false);
    expect(await call('interfaces', ['class/net/lo/mtu'])).toBe(false);
    expect(await call('write', ['kernel/tsalt-nope', 1])).toBe(false);
    expect(await call('attr', ['kernel/tsalt-nope', 1])).toBe(false);
  });
});
