import { describe, expect, it } from 'vitest';
import {
  parseInfo,
  parsePropList,
  parseSubvolumeList,
  parseSubvolumeShow,
  parseUsage,
} from './_btrfs-parse.js';

// btrfs-progs v6.2 text, as this machine's btrfs prints it
const SHOW = `Label: 'tb'  uuid: 11111111-2222-3333-4444-555555555555
\tTotal devices 2 FS bytes used 160.00KiB
\tdevid    1 size 320.00MiB used 88.00MiB path /dev/loop0
\tdevid    2 size 320.00MiB used 0.00B path /dev/loop1
`;

const USAGE = `Overall:
    Device size:\t\t 320.00MiB
    Free (estimated):\t\t 240.00MiB\t(min: 124.00MiB)
    Free (statfs, df):\t\t 239.00MiB
    Global reserve:\t\t   5.50MiB\t(used: 0.00B)

Data,single: Size:8.00MiB, Used:0.00B (0.00%)
   /dev/loop0\t   8.00MiB

Unallocated:
   /dev/loop0\t 232.00MiB`;

describe('btrfs text readers', () => {
  it('reads filesystem show as Salt does, leaving out the last line', () => {
    expect(parseInfo(SHOW)).toEqual({
      label: "'tb'",
      uuid: '11111111-2222-3333-4444-555555555555',
      '/dev/loop0': { device_id: '1', size: '320.00MiB', used: '88.00MiB' },
    });
    expect(parseInfo('Label: none  uuid: u\n\tx\n')).toEqual({ label: null, uuid: 'u' });
  });
  it('reads filesystem usage, the profile percentage left out', () => {
    expect(parseUsage(USAGE)).toEqual({
      overall: {
        device_size: '320.00MiB',
        free_estimated: '240.00MiB',
        free_estimated_min: '124.00MiB',
        'free_statfs,_df': '239.00MiB',
        global_reserve: '5.50MiB',
        global_reserve_used: '0.00B',
      },
      data_single: { Size: '8.00MiB', Used: '0.00B', '/dev/loop0': '8.00MiB' },
      unallocated: { '/dev/loop0': '232.00MiB' },
    });
  });
  it('reads property lists and subvolume lists', () => {
    expect(parsePropList('ro                  read-only status\nlabel               label of it\n')).toEqual({
      ro: 'read-only status',
      label: 'label of it',
    });
    expect(
      parseSubvolumeList(
        'ID 256 gen 7 parent 5 top level 5 uuid 1ae4 path s1\nID 257 gen 9 top level 5 otime 2026-11-29 10:16:35 path snap\n',
      ),
    ).toEqual([{ id: '256', gen: '7', parent: '5', 'top level': '5', uuid: '1ae4', path: 's1' }]);
  });
  it('reads subvolume show, and fails as Python does on a line without a colon', () => {
    expect(parseSubvolumeShow('s1\n\tName: \t\t\ts1\n\tSubvolume ID: \t\t256\n\tSnapshot(s):\n')).toEqual({
      s1: { name: 's1', 'subvolume id': '256', 'snapshot(s)': '' },
    });
    expect(() => parseSubvolumeShow('s1\n\tSnapshot(s):\n\t\t\t\tsnap1\n')).toThrow(
      'not enough values to unpack (expected 2, got 1)',
    );
  });
});
