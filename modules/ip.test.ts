// ip module (Salt's debian_ip) on this machine's real /etc files: the interfaces file, route
// scripts and bond files are put in place for the test, and what was there before is put back
// after. Expectations: what Salt 3006.18 returned and wrote for the same calls (/tmp/ip20/cmp.mjs).
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import cmdMod from './cmd.js';
import ipMod from './ip.js';

const fx = path.join(import.meta.dirname, '..', 'test', 'fixtures', 'debian-ip');
const ctx = moduleCtx([cmdMod, ipMod]);
const call = (fn: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
  ctx.call(`ip.${fn}`, args, kw);

const FILES = [
  '/etc/network/interfaces',
  '/etc/network/interfaces.d/extra.cfg',
  '/etc/network/interfaces.d/tsnew1.cfg',
  '/etc/network/if-up.d/route-tse7_5',
  '/etc/network/if-down.d/route-tse7_5',
  '/etc/modprobe.d/tsbond9.conf',
  '/etc/default/networking',
];
const DIRS = [
  '/etc/network',
  '/etc/network/interfaces.d',
  '/etc/network/if-up.d',
  '/etc/network/if-down.d',
  '/etc/modprobe.d',
  '/etc/default',
];
const saved = new Map<string, string | null>();
const madeDirs: string[] = [];

beforeAll(() => {
  for (const f of FILES) saved.set(f, existsSync(f) ? readFileSync(f, 'latin1') : null);
  for (const d of DIRS) {
    if (!existsSync(d)) {
      mkdirSync(d);
      madeDirs.push(d);
    }
  }
  copyFileSync(path.join(fx, 'interfaces'), '/etc/network/interfaces');
  copyFileSync(path.join(fx, 'extra.cfg'), '/etc/network/interfaces.d/extra.cfg');
  writeFileSync(
    '/etc/modprobe.d/tsbond9.conf',
    'alias tsbond9 bonding\noptions tsbond9 mode=1 miimon=100 \n',
  );
});

afterAll(() => {
  for (const [f, text] of saved) {
    if (text === null) rmSync(f, { force: true });
    else writeFileSync(f, text, 'latin1');
  }
  for (const d of madeDirs.reverse()) rmdirSync(d);
});

describe('ip (debian) reading this machine files', () => {
  it('prints interfaces back as Salt does', async () => {
    expect(await call('get_interface', ['ethx'])).toEqual([
      'auto ethx\n',
      'iface ethx inet dhcp\n',
      '    netmask 24\n',
      '\n',
    ]);
    expect(await call('get_interface', ['lo'])).toEqual(['auto lo\n', 'iface lo inet loopback\n', '\n']);
    expect(await call('get_interface', ['source'])).toEqual([
      '\n',
      'source /etc/network/interfaces.d/*\n',
      '\n',
    ]);
    expect(await call('get_interface', ['nosuch'])).toEqual([]);
  });

  it('reads bond files, and answers missing ones and missing routes with an empty string', async () => {
    expect(await call('get_bond', ['tsbond9'])).toEqual([
      'alias tsbond9 bonding\n',
      'options tsbond9 mode=1 miimon=100 \n',
    ]);
    expect(await call('get_bond', ['tsaltnosuch'])).toBe('');
    expect(await call('get_routes', ['tsaltnosuch'])).toBe('');
  });

  it('returns text without writing under test=True', async () => {
    expect(
      await call('build_bond', ['bond0'], {
        test: true,
        mode: 'balance-tlb',
        primary: 'eth3',
        use_carrier: 'yes',
        updelay: 10,
      }),
    ).toEqual([
      'alias bond0 bonding\n',
      'options bond0 mode=5 miimon=100 downdelay=200 updelay=10 use_carrier=1 primary=eth3 ',
    ]);
    expect(
      await call('build_interface', ['src', 'source', true], { test: true, source: '/etc/x/*' }),
    ).toEqual(['\n']);
    await expect(call('build_interface', ['eth9', 'alias', true], { test: true })).rejects.toThrow(
      "cannot access local variable 'opts' where it is not associated with a value",
    );
    const networking = await call('build_network_settings', [], { test: true, enabled: 'no' });
    expect((networking as string[])[4]).toBe('CONFIGURE_INTERFACES=no\n');
    expect(existsSync('/etc/default/networking')).toBe(saved.get('/etc/default/networking') !== null);
  });
});

describe('ip (debian) writing this machine files', () => {
  it('rewrites the interfaces file from what it read, the new interface last', async () => {
    expect(await call('build_interface', ['tsnew0', 'eth', false], { proto: 'dhcp', hotplug: true })).toEqual(
      ['allow-hotplug tsnew0\n', 'iface tsnew0 inet dhcp\n', '\n'],
    );
    const text = readFileSync('/etc/network/interfaces', 'utf8');
    expect(
      text.startsWith(
        'auto lo\niface lo inet loopback\nauto eth9\nallow-hotplug eth9\niface eth9 inet static\n',
      ),
    ).toBe(true);
    expect(
      text.endsWith(
        'auto ethx\niface ethx inet dhcp\n    netmask 24\nallow-hotplug tsnew0\niface tsnew0 inet dhcp\n',
      ),
    ).toBe(true);
    expect(text).not.toContain('source /etc/network/interfaces.d/*');
  });

  it('writes an interface to its own file when given filename', async () => {
    await call('build_interface', ['tsnew1', 'eth', true], { proto: 'manual', filename: 'tsnew1.cfg' });
    expect(readFileSync('/etc/network/interfaces.d/tsnew1.cfg', 'utf8')).toBe(
      'auto tsnew1\niface tsnew1 inet manual\n',
    );
  });

  it('writes executable route scripts, dots in the name as underscores', async () => {
    const lines = await call('build_routes', ['tse7.5'], {
      routes: [{ name: 'r1', ipaddr: '10.9.0.0', netmask: 16, gateway: '10.0.0.1' }],
    });
    expect(readFileSync('/etc/network/if-up.d/route-tse7_5', 'utf8')).toBe(
      `#!/bin/sh\n# add\ntest "$${'{'}IFACE}" = "tse7.5" || exit 0\n# r1\nip route add 10.9.0.0/16 via 10.0.0.1 dev tse7.5\n`,
    );
    expect(statSync('/etc/network/if-down.d/route-tse7_5').mode & 0o777).toBe(0o755);
    expect(lines).toHaveLength(10);
    expect(await call('get_routes', ['tse7_5'])).toEqual(lines);
  });

  it('writes /etc/default/networking and reads it back', async () => {
    const host = readFileSync('/etc/hostname', 'utf8').split('\n')[0];
    expect(await call('build_network_settings', [], { enabled: 'yes', hostname: host })).toEqual([
      'NETWORKING=yes\n',
      `HOSTNAME=${host}\n`,
    ]);
    expect(readFileSync('/etc/default/networking', 'utf8')).toContain('\nCONFIGURE_INTERFACES=yes\n');
    expect(await call('get_network_settings')).toEqual(['NETWORKING=yes\n', `HOSTNAME=${host}\n`]);
  });
});
