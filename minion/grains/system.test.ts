import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  diskGrains,
  gatewayGrains,
  kernelParams,
  parseResolv,
  systemdGrain,
  systemGrains,
} from './system.js';

describe('system grains', () => {
  it("parses resolv.conf as Salt's parse_resolv does", () => {
    const text = [
      '# generated',
      'nameserver 10.0.0.53',
      'nameserver fd00::53 # v6',
      'nameserver 10.0.0.53',
      'nameserver not-an-ip',
      'search example.com corp.example.com',
      'sortlist 130.155.160.0/255.255.240.0',
      'options ndots:2 rotate',
      'options ndots:2',
    ].join('\n');
    expect(parseResolv(text)).toEqual({
      nameservers: ['10.0.0.53', 'fd00::53'],
      ip4_nameservers: ['10.0.0.53'],
      ip6_nameservers: ['fd00::53'],
      sortlist: ['130.155.160.0/255.255.240.0'],
      domain: '',
      search: ['example.com', 'corp.example.com'],
      options: ['ndots:2'],
    });
  });

  it('finds the default gateways in the kernel routing tables', () => {
    const route4 = [
      'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT',
      'eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0',
      'eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0',
    ].join('\n');
    const route6 = [
      '00000000000000000000000000000001 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000001 00000000 00200001 lo',
      '00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd000000000000000000000000000001 00000400 00000001 00000000 00000003 eth0',
    ].join('\n');
    expect(gatewayGrains(route4, route6)).toEqual({ ip_gw: true, ip4_gw: '192.0.2.1', ip6_gw: 'fd00::1' });
    expect(gatewayGrains(route4.split('\n').slice(0, 2).join('\n'), '')).toEqual({
      ip_gw: false,
      ip4_gw: false,
      ip6_gw: false,
    });
  });

  it('splits the kernel command line into name/value pairs', () => {
    expect(kernelParams('root=/dev/vda1 ro quiet console="ttyS0,115200" a=b=c --\n')).toEqual([
      ['root', '/dev/vda1'],
      ['ro', null],
      ['quiet', null],
      ['console', 'ttyS0,115200'],
      ['a', null],
      ['--', null],
    ]);
  });

  it('tells disks from SSDs and leaves virtual block devices out', () => {
    const root = mkdtempSync(join(tmpdir(), 'tsalt-grains-disks-'));
    const devices = join(root, 'devices');
    const block = join(root, 'block');
    mkdirSync(block);
    for (const [name, rot, where] of [
      ['vda', '1', 'pci0000:00/virtio1/block'],
      ['nvme0n1', '0', 'pci0000:00/nvme/block'],
      ['loop0', '0', 'virtual/block'],
    ] as const) {
      const dir = join(devices, where, name);
      mkdirSync(join(dir, 'queue'), { recursive: true });
      writeFileSync(join(dir, 'queue', 'rotational'), `${rot}\n`);
      symlinkSync(`../devices/${where}/${name}`, join(block, name));
    }
    expect(diskGrains(block)).toEqual({ disks: ['vda'], ssds: ['nvme0n1'] });
    expect(diskGrains(join(root, 'none'))).toEqual({ disks: [], ssds: [] });
  });

  it("gives this machine's grains in Salt's types", () => {
    const g = systemGrains();
    expect(typeof g.ip_gw).toBe('boolean');
    expect(g.ps).toBe('ps -efHww');
    expect(Array.isArray(g.disks)).toBe(true);
    expect(typeof g.efi).toBe('boolean');
    expect(g.zfs_support).toBe(false);
  });

  it("reads systemctl --version as Salt's systemd grain", () => {
    const out = 'systemd 252 (252.30-1~deb12u2)\n+PAM +AUDIT -GNUTLS default-hierarchy=unified\n';
    expect(systemdGrain(out)).toEqual({
      version: '252',
      features: '+PAM +AUDIT -GNUTLS default-hierarchy=unified',
    });
    expect(systemdGrain('systemd 252')).toEqual({ version: '252', features: '' });
    expect(systemdGrain('not systemd')).toEqual({ version: 'UNDEFINED', features: '' });
    expect(systemdGrain(undefined)).toEqual({ version: 'UNDEFINED', features: '' });
  });
});
