import { describe, expect, it } from 'vitest';
import { parseUdevadmInfo, udevValue } from './_udevadm-parse.js';

describe('parseUdevadmInfo', () => {
  it('reads records as Salt does: one value is not a list, E is a map with numbers read', () => {
    const out = [
      'P: /devices/virtual/block/loop0',
      'N: loop0',
      'S: disk/by-id/a',
      'S: disk/by-id/b',
      'E: DEVNAME=/dev/loop0',
      'E: MAJOR=7',
      'E: ID_FS_VERSION=1.0',
      'E: ID_SERIAL=0x1f',
      'no colon here',
      '',
      'P: /devices/virtual/net/lo',
      'E: IFINDEX=1',
      'E: INTERFACE=lo',
    ].join('\n');
    expect(parseUdevadmInfo(out)).toEqual([
      {
        P: '/devices/virtual/block/loop0',
        N: 'loop0',
        S: ['disk/by-id/a', 'disk/by-id/b'],
        E: { DEVNAME: '/dev/loop0', MAJOR: 7, ID_FS_VERSION: 1, ID_SERIAL: '0x1f' },
      },
      { P: '/devices/virtual/net/lo', E: { IFINDEX: 1, INTERFACE: 'lo' } },
    ]);
  });

  it("fails as Salt's does on a record with a single property (KeyError: 0)", () => {
    expect(() => parseUdevadmInfo('P: /x\nE: A=1\n')).toThrow(
      expect.objectContaining({ name: 'KeyError', message: '0' }),
    );
  });

  it('reads numbers as Python int() then float()', () => {
    expect(udevValue('1_000')).toBe(1000);
    expect(udevValue('-5')).toBe(-5);
    expect(udevValue('1e3')).toBe(1000);
    expect(udevValue('.5')).toBe(0.5);
    expect(udevValue('1__0')).toBe('1__0');
    expect(udevValue('12345678901234567890123')).toBe('12345678901234567890123');
    expect(udevValue('abc')).toBe('abc');
  });
});
