import { describe, expect, it } from 'vitest';
import { parseEstimate, parseInventory, parsePrune, parseXfsdump, parseXfsInfo } from './_xfs-parse.js';

// xfsprogs 6.1 xfs_info text, as this machine prints it
const INFO = `meta-data=/dev/loop2             isize=512    agcount=4, agsize=20480 blks
         =                       sectsz=512   attr=2, projid32bit=1
data     =                       bsize=4096   blocks=81920, imaxpct=25
naming   =version 2              bsize=4096   ascii-ci=0, ftype=1
log      =internal log           bsize=4096   blocks=16384, version=2
realtime =none                   extsz=4096   blocks=0, rtextents=0
`;

describe('xfs text readers', () => {
  it('reads xfs_info geometry as Salt does', () => {
    expect(parseXfsInfo(INFO)).toEqual({
      'meta-data': {
        section: '/dev/loop2',
        isize: '512',
        agcount: '4',
        agsize: '20480 blks',
        sectsz: '512',
        attr: '2',
        projid32bit: '1',
      },
      data: { section: 'data', bsize: '4096', blocks: '81920', imaxpct: '25' },
      naming: { section: 'version 2', bsize: '4096', 'ascii-ci': '0', ftype: '1' },
      log: { section: 'internal log', bsize: '4096', blocks: '16384', version: '2' },
      realtime: { section: 'none', extsz: '4096', blocks: '0', rtextents: '0' },
    });
  });
  it('reads xfsdump, estimate and prune reports', () => {
    expect(
      parseXfsdump(
        'xfsdump: session id: abc-1\nxfsdump: session label: "L0"\nxfsdump: Dump Summary:\n' +
          'xfsdump:   stream 0 /d0 OK (success)\nxfsdump: Dump Status: SUCCESS\n',
      ),
    ).toEqual({
      'Session ID': 'abc-1',
      'Session label': '"L0"',
      Status: 'SUCCESS',
      Summary: 'stream 0 /d0 OK (success)',
    });
    expect(
      parseEstimate(
        'directory  bsize   blocks    megabytes    logsize\n/mnt   4096  1139   4.4MB   4096000\n',
      ),
    ).toEqual({
      '/mnt': { 'block _size': '4096', blocks: '1139', megabytes: '4.4MB', logsize: '4096000' },
    });
    const prune = 'head\n---\n\tUUID\t\t:\tu-1\n\tsession label\t:\t"x"\n---\n';
    expect(parsePrune(prune, 'u-1')).toEqual({}); // the first line after the cut is skipped, UUID with it
    expect(parsePrune('---\nfirst\nUUID : u-1\nmount point : /m\n---\n', 'u-1')).toEqual({
      uuid: 'u-1',
      mount_point: '/m',
    });
    expect(parsePrune('---\nfirst\nUUID : u-1\n---\n', 'u-2')).toEqual({});
  });
  it('reads the inventory the way Salt evaluates it', () => {
    expect(parseInventory('xfsrestore: Restore Status: SUCCESS\n')).toEqual({
      restore_status: 'xfsrestore: Restore Status: SUCCESS',
    });
    const inv =
      'file system 0:\n\tfs id:\t\tu\n\tsession 0:\n\t\tlabel:\t\t"L0"\n\t\tlevel:\t\t0\nxfsrestore: Restore Status: SUCCESS\n';
    expect(parseInventory(inv)).toEqual({
      'file system 0': { 'fs id': 'u', 'session 0': { label: '"L0"', level: '0' } },
      restore_status: 'xfsrestore: Restore Status: SUCCESS',
    });
    expect(() => parseInventory("a:\n\tb:\t'q'\nstatus\n")).toThrow();
  });
});
