import { describe, expect, it } from 'vitest';
import { parseHwinfoFull, parseHwinfoShort } from './_hwinfo-parse.js';

// hwinfo 21.82 text, as this machine prints it
const FULL = `13: None 00.0: 10600 Disk
  [Created at block.255]
  Unique ID: KSbE.Fxp0d3BezAE
  Model: "Disk"
  Driver: "virtio-pci", "virtio_blk"
  Device Files: /dev/vda, /dev/disk/by-path/virtio-pci-0000:00:02.0
  Config Status: cfg=new, avail=yes, need=no, active=unknown
  Attached to: #8 (Storage controller)
`;

describe('hwinfo readers', () => {
  it('reads the short listing, numbering the deeper lines', () => {
    const bad: string[] = [];
    expect(
      parseHwinfoShort(
        'memory:\n                       Main Memory\ndisk:\n  /dev/vda             Disk\nodd\n',
        (l) => bad.push(l),
      ),
    ).toEqual({ memory: { 0: 'Main Memory' }, disk: { '/dev/vda': 'Disk' } });
    expect(bad).toEqual(['odd']);
  });
  it('reads the full report as Salt does', () => {
    expect(parseHwinfoFull(FULL)).toEqual({
      '13': {
        'None 00.0': '10600 Disk',
        Note: 'Created at block.255',
        'Unique ID': 'KSbE.Fxp0d3BezAE',
        Model: 'Disk',
        Driver: ['virtio-pci', 'virtio_blk'],
        'Device Files': ['/dev/vda', '/dev/disk/by-path/virtio-pci-0000:00:02.0'],
        'Config Status': { cfg: 'new', avail: 'yes', need: 'no', active: 'unknown' },
        'Attached to': { Handle: '#8 (Storage controller)' },
      },
    });
  });
});
