// The Debian ip module's parse of an interfaces file and its renderers. Every expectation is what
// Salt 3006.18 returned for the same file or settings on this machine (see /tmp/ip20/cmp.mjs).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseInterfaces } from './_debian-ip-parse.js';
import {
  readLines,
  renderBondConf,
  renderDisplayNetwork,
  renderEth,
  renderRoutes,
  renderSource,
  splitLines,
} from './_debian-ip-render.js';
import { ethAdapter } from './_debian-ip-settings.js';

const fx = (name: string): string =>
  path.join(import.meta.dirname, '..', 'test', 'fixtures', 'debian-ip', name);
const adapters = parseInterfaces([fx('interfaces'), fx('extra.cfg')]);
const show = (name: string): string[] => splitLines(renderEth(name, adapters.get(name)));

describe('debian ip: an interfaces file read and printed back as Salt does', () => {
  it('keeps Salt option order, checked values, repeated addresses, commands and ethtool keys', () => {
    expect(show('eth9')).toEqual([
      'auto eth9\n',
      'allow-hotplug eth9\n',
      'iface eth9 inet static\n',
      '    hwaddress 52:54:00:12:34:56\n',
      '    address 192.168.50.5\n',
      '    address 192.168.50.6\n',
      '    netmask 255.255.255.0\n',
      '    metric 5\n',
      '    gateway 192.168.50.1\n',
      '    scope link\n',
      '    mtu 1400\n',
      '    dns-nameservers 8.8.8.8 1.1.1.1\n',
      '    up ip link set $IFACE promisc on\n',
      '    up echo hi\n',
      '    pre-down echo bye\n',
      '    link-speed 1000\n',
      '    offload-tso off\n',
      'iface eth9 inet6 static\n',
      '    autoconf 1\n',
      '    privext 2\n',
      '    address fe80::5\n',
      '    netmask 64\n',
      '\n',
    ]);
  });

  it('prints bond and bridge options sorted, drops unknown options, reads tab-indented lines', () => {
    expect(show('tsb0')).toEqual([
      'auto tsb0\n',
      'iface tsb0 inet manual\n',
      '    bond-miimon 100\n',
      '    bond-mode 802.3ad\n',
      '    bond-slaves eth7 eth8\n',
      '    bridge_ports none\n',
      '\n',
    ]);
    expect(show('eth7')).toEqual([
      'iface eth7 inet manual\n',
      '    wpa-ssid tabbed\n',
      '    bond-master tsb0\n',
      '\n',
    ]);
    expect(show('ethx')).toEqual(['auto ethx\n', 'iface ethx inet dhcp\n', '    netmask 24\n', '\n']);
    expect(splitLines(renderSource(adapters.get('source')))).toEqual([
      '\n',
      'source /etc/network/interfaces.d/*\n',
      '\n',
    ]);
  });

  it('refuses an iface line without four words with Salt message', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tsalt-ip-'));
    try {
      writeFileSync(path.join(dir, 'bad'), 'auto eth0\niface eth0 inet\n');
      expect(() => parseInterfaces([path.join(dir, 'bad')])).toThrow(
        "Interface file malformed: ['iface', 'eth0', 'inet'].",
      );
      writeFileSync(path.join(dir, 'auto-only'), 'auto eth0\n');
      expect([...parseInterfaces([path.join(dir, 'auto-only')]).keys()]).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('debian ip: settings built into interface text', () => {
  const build = (name: string, type: string, settings: Record<string, unknown>): string[] =>
    splitLines(renderEth(name, ethAdapter({ test: true, ...settings }, type, true, name, false)));

  it('builds static, ipv6, ethtool and bond blocks', () => {
    expect(
      build('eth9', 'eth', {
        proto: 'static',
        ipaddr: '10.1.1.2',
        netmask: '255.255.255.0',
        gateway: '10.1.1.1',
        mtu: 1500,
        dns: ['8.8.8.8', '8.8.4.4'],
      }),
    ).toEqual([
      'auto eth9\n',
      'iface eth9 inet static\n',
      '    address 10.1.1.2\n',
      '    netmask 255.255.255.0\n',
      '    gateway 10.1.1.1\n',
      '    mtu 1500\n',
      '    dns-nameservers 8.8.8.8 8.8.4.4\n',
      '\n',
    ]);
    expect(
      build('eth9', 'eth', { ipv6proto: 'auto', ipv6privext: 2, ipv6accept_ra: 1, ipv6autoconf: 0 }),
    ).toEqual(['auto eth9\n', 'iface eth9 inet6 auto\n', '    privext 2\n', '    accept_ra 1\n', '\n']);
    expect(
      build('eth9', 'eth', {
        proto: 'dhcp',
        autoneg: 'on',
        speed: 1000,
        duplex: 'full',
        tso: 'off',
        gro: true,
      }),
    ).toEqual([
      'auto eth9\n',
      'iface eth9 inet dhcp\n',
      '    ethernet-autoneg on\n',
      '    link-duplex full\n',
      '    offload-gro on\n',
      '    offload-tso off\n',
      '\n',
    ]);
    expect(
      build('bond0', 'bond', {
        proto: 'dhcp',
        slaves: ['eth1', 'eth2'],
        mode: 'active-backup',
        primary: 'eth1',
        use_carrier: 'off',
      }),
    ).toEqual([
      'auto bond0\n',
      'iface bond0 inet dhcp\n',
      '    bond-downdelay 200\n',
      '    bond-miimon 100\n',
      '    bond-mode 1\n',
      '    bond-primary eth1\n',
      '    bond-slaves eth1 eth2\n',
      '    bond-updelay 0\n',
      '    bond-use_carrier 0\n',
      '\n',
    ]);
    expect(build('eth9', 'eth', { proto: 'bogus', ipaddr: 'notanip', mtu: 'big' })).toEqual([
      'auto eth9\n',
      '\n',
    ]);
  });

  it('refuses a bad bond mode and a bad on/off value with Salt text', () => {
    expect(() => build('bond0', 'bond', { proto: 'dhcp', slaves: 'eth1', mode: 9 })).toThrow(
      'Invalid option -- Interface: bond0, Option: mode, Expected: [0|1|2|3|4|5|6|balance-rr|active-backup|balance-xor|broadcast|802.3ad|balance-tlb|balance-alb]',
    );
    expect(() => build('eth9', 'eth', { proto: 'static', autoneg: 'maybe' })).toThrow(
      'Invalid option -- Interface: eth9, Option: autoneg, Expected: [yes|on|true|1|True|no|off|false|0|False]',
    );
  });
});

describe('debian ip: bond, route and settings files', () => {
  it('renders them byte for byte', () => {
    expect(readLines(renderBondConf('bond0', { mode: '4', miimon: 50 }))).toEqual([
      'alias bond0 bonding\n',
      'options bond0 mode=4 miimon=50 ',
    ]);
    const routes = [
      { name: 'r1', ipaddr: '10.9.0.0', netmask: 16, gateway: '10.0.0.1' },
      { ipaddr: '10.8.0.0', netmask: '255.255.0.0', metric: 7 },
    ];
    expect(readLines(renderRoutes('add', routes, 'eth9'))).toEqual([
      '#!/bin/sh\n',
      '# add\n',
      `test "$${'{'}IFACE}" = "eth9" || exit 0\n`,
      '# r1\n',
      'ip route add 10.9.0.0/16 via 10.0.0.1 dev eth9\n',
      'ip route add 10.8.0.0/255.255.0.0  dev eth9 metric 7\n',
    ]);
    expect(
      renderDisplayNetwork({
        networking: 'no',
        hostname: 'vm',
        domainname: 'example.net',
        searchdomain: 'example.org',
      }),
    ).toBe('NETWORKING=no\nHOSTNAME=vm\nDOMAIN=example.net\nSEARCH=example.org\n');
  });
});
