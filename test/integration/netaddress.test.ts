/**
 * The `netaddress` module through salt-call --local. Expectations: Salt 3006.18 with
 * python-netaddr 0.8 on this machine (79 of 79 calls identical in /tmp/tools22/cmp.mjs netaddress).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';

describe('netaddress module', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-netaddress-'));
  const call = localCaller(root, 'netaddress1');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists, masks and broadcasts IPv4 and IPv6 networks', { timeout: 240_000 }, async () => {
    expect((await call('netaddress.list_cidr_ips', '10.1.2.3/30')).local).toEqual([
      '10.1.2.0',
      '10.1.2.1',
      '10.1.2.2',
      '10.1.2.3',
    ]);
    expect((await call('netaddress.list_cidr_ips_ipv6', '10.1.2.3/31')).local).toEqual([
      '::ffff:10.1.2.2',
      '::ffff:10.1.2.3',
    ]);
    expect((await call('netaddress.list_cidr_ips', '2001:db8::/127')).local).toEqual([
      '2001:db8::',
      '2001:db8::1',
    ]);
    expect((await call('netaddress.cidr_netmask', '192.168/255.255.240.0')).local).toBe('255.255.240.0');
    expect((await call('netaddress.cidr_netmask', 'cidr=2001:db8::/::ffff')).local).toBe(
      'ffff:ffff:ffff:ffff:ffff:ffff:ffff:0',
    );
    expect((await call('netaddress.cidr_broadcast', '172.16/12')).local).toBe('172.31.255.255');
    expect((await call('netaddress.cidr_broadcast', '10.1.2.3/31')).local).toBe('None');
    expect((await call('netaddress.cidr_broadcast', '::/96')).local).toBe('::255.255.255.255');
  });

  it("bad networks: netaddr's AddrFormatError, or invalid arguments for a value that is no string", {
    timeout: 180_000,
  }, async () => {
    const bad = await call('netaddress.cidr_netmask', '1.2.3.4/33');
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('AddrFormatError: invalid IPNetwork 1.2.3.4/33');
    const num = await call('netaddress.list_cidr_ips', '10');
    expect(num.code).toBe(1);
    expect(num.output).toContain("Passed invalid arguments: unexpected type <class 'int'> for addr arg.");
    const huge = await call('netaddress.list_cidr_ips', '0.0.0.0/7');
    expect(huge.code).toBe(1);
    expect(huge.output).toContain('The network has 33554432 addresses; at most 16777216 can be listed');
  });
});
