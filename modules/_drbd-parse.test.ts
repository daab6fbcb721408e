import { describe, expect, it } from 'vitest';
import { parseOverview, parseStatus } from './_drbd-parse.js';

// drbdadm status text in drbd 9's layout (the shape Salt's module comments show)
const STATUS = `r0 role:Secondary
  volume:0 disk:Inconsistent
  volume:1 disk:Inconsistent
  node-a role:Primary
    volume:0 replication:SyncTarget peer-disk:UpToDate done:10.17
    volume:1 replication:SyncTarget peer-disk:UpToDate done:74.08
  node-b connection:Connecting

r1 role:Primary
  disk:UpToDate
`;

describe('drbd readers', () => {
  it("reads drbdadm status into Salt's resources, volumes and peers", () => {
    expect(parseStatus(STATUS.split('\n'))).toEqual([
      {
        'resource name': 'r0',
        'local role': 'Secondary',
        'local volumes': [
          { volume: '0', disk: 'Inconsistent' },
          { volume: '1', disk: 'Inconsistent' },
        ],
        'peer nodes': [
          {
            'peernode name': 'node-a',
            role: 'Primary',
            'peer volumes': [
              { volume: '0', replication: 'SyncTarget', 'peer-disk': 'UpToDate', done: '10.17' },
              { volume: '1', replication: 'SyncTarget', 'peer-disk': 'UpToDate', done: '74.08' },
            ],
          },
          { 'peernode name': 'node-b', connection: 'Connecting', 'peer volumes': [] },
        ],
      },
      {
        'resource name': 'r1',
        'local role': 'Primary',
        'local volumes': [{ disk: 'UpToDate' }],
        'peer nodes': [],
      },
    ]);
  });

  it('answers an unreadable indent as Salt does, and raises where Salt raises', () => {
    expect(parseStatus([' odd line'])).toEqual({ 'Unknown parser': ' odd line' });
    expect(parseStatus([])).toEqual([]);
    // what drbdadm prints with no drbd kernel module: Salt's reader fails on the second line
    const noModule = ['modinfo: ERROR: Module drbd not found.', 'no resources defined!'];
    expect(() => parseStatus(noModule)).toThrow(/list index out of range/);
    expect(() => parseStatus(['  volume:0 disk:UpToDate'])).toThrow("'local volumes'");
    expect(() => parseStatus(['r0 role:Primary', '    volume:0 peer-disk:UpToDate'])).toThrow(
      "'NoneType' object has no attribute 'append'",
    );
    expect(() => parseStatus([' odd', 'r0 role:Primary', 'r1 role:Primary'])).toThrow(
      "'dict' object has no attribute 'append'",
    );
  });

  it('reads drbd-overview lines, returning the last one', () => {
    const synced = '  0:r0/0  Connected Primary/Secondary UpToDate/UpToDate /mnt ext4 1.0G 10M 990M 1%';
    const syncing =
      "  1:r1/0  SyncSource Primary/Secondary UpToDate/Inconsistent [===>....] sync'ed: 35.2% (660/1020)M";
    expect(parseOverview([synced])).toEqual({
      'minor number': '0',
      device: 'r0/0',
      'connection state': 'Connected',
      'local role': 'Primary',
      'partner role': 'Secondary',
      'local disk state': 'UpToDate',
      'partner disk state': 'UpToDate',
      mountpoint: '/mnt',
      fs: 'ext4',
      'total size': '1.0G',
      used: '10M',
      remains: '990M',
      percent: '1%',
    });
    expect(parseOverview([synced, syncing])).toEqual({
      'minor number': '1',
      device: 'r1/0',
      'connection state': 'SyncSource',
      'local role': 'Primary',
      'partner role': 'Secondary',
      'local disk state': 'UpToDate',
      'partner disk state': 'Inconsistent',
      'synchronisation: ': '[===>....]',
      synched: '35.2%(660/1020)M',
    });
    expect(parseOverview(['0:r0/0 Connected(2*) Secondary(2*) Diskless(2*)'])).toEqual({});
    // a peer that is not UpToDate and no sync bar: Salt's reader runs past the fields
    expect(() => parseOverview(['2:r2/0 WFConnection Primary/Unknown UpToDate/DUnknown'])).toThrow(
      /list index/,
    );
    expect(() => parseOverview([])).toThrow(/local variable 'ret'/);
    expect(() => parseOverview(['0:r0/0'])).toThrow(/list index out of range/);
  });
});
