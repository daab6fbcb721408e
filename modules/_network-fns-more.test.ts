import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import { ipHexVal, macBytes, reversePointer } from './_network-fns-more.js';
import network from './network.js';

const call = async (fun: string, arg: unknown[] = []) => (await invoke(network, fun, arg, fakeCtx())).value;

describe('network: addresses, networks and Wake-on-LAN', () => {
  it("names reverse pointers as Python's ipaddress does", () => {
    expect(reversePointer('172.17.0.4')).toBe('4.0.17.172.in-addr.arpa');
    expect(reversePointer('2001:db8::1')).toBe(`1.${'0.'.repeat(23)}8.b.d.0.1.0.0.2.ip6.arpa`);
    expect(reversePointer(3232235777)).toBe('1.1.168.192.in-addr.arpa');
    expect(() => reversePointer('bogus')).toThrow("'bogus' does not appear to be an IPv4 or IPv6 address");
  });

  it("writes each part of an address as Python's %02X", () => {
    expect(ipHexVal('10.0.0.1')).toBe('0A000001');
    expect(ipHexVal('1.300.-5.7')).toBe('0112C-507');
    expect(() => ipHexVal('10.x.0.1')).toThrow("invalid literal for int() with base 10: 'x'");
    expect(() => ipHexVal(300.1)).toThrow("'float' object has no attribute 'split'");
  });

  it('reads MAC addresses with or without separators', () => {
    expect(macBytes('08:00:27:13:69:77')).toEqual(Buffer.from([8, 0, 0x27, 0x13, 0x69, 0x77]));
    expect(macBytes('08-00-27-13-69-77')).toEqual(macBytes('080027136977'));
    expect(() => macBytes('0800')).toThrow('Invalid MAC address');
    expect(() => macBytes('08:00:27:13:69:zz')).toThrow("invalid literal for int() with base 16: 'zz'");
  });

  it('sends a magic packet: six 0xff then the MAC sixteen times', async () => {
    const sock = createSocket('udp4');
    const got = new Promise<Buffer>((resolve) => sock.on('message', (m) => resolve(m)));
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
    const port = sock.address().port;
    expect(await call('wol', ['08-00-27-13-69-77', '127.0.0.1', String(port)])).toBe(true);
    const pkt = await got;
    sock.close();
    expect(pkt).toHaveLength(102);
    expect(pkt.subarray(0, 6)).toEqual(Buffer.alloc(6, 0xff));
    expect(pkt.subarray(96)).toEqual(Buffer.from([8, 0, 0x27, 0x13, 0x69, 0x77]));
  });

  it('lists the networks of the addresses `ip -j addr` shows', async () => {
    const ifaces = JSON.parse(execFileSync('ip', ['-j', 'addr'], { encoding: 'utf8' })) as Array<{
      ifname: string;
      addr_info: Array<{ family: string; local: string; prefixlen: number }>;
    }>;
    const v4 = ifaces.flatMap((i) =>
      i.addr_info.filter((a) => a.family === 'inet').map((a) => ({ ...a, ifname: i.ifname })),
    );
    const nets = (await call('ip_networks', [{ __kwarg__: true, include_loopback: true }])) as string[];
    for (const a of v4) expect(nets.some((n) => n.endsWith(`/${a.prefixlen}`))).toBe(true);
    expect(nets).toContain('127.0.0.0/8');
    expect(await call('ip_networks')).not.toContain('127.0.0.0/8');
    const verbose = (await call('ip_networks', ['lo', true, true])) as Record<
      string,
      Record<string, unknown>
    >;
    expect(verbose['127.0.0.0/8']).toEqual({
      address: '127.0.0.0',
      netmask: '255.0.0.0',
      num_addresses: 16777216,
      prefixlen: 8,
    });
    expect(
      await call('ip_networks6', [{ __kwarg__: true, interface: 'lo', include_loopback: true }]),
    ).toEqual(['::1/128']);
    expect(await call('ifacestartswith', ['127.'])).toContain('lo');
    expect(await call('ifacestartswith', ['203.0.113.'])).toEqual([]);
  });

  it('asks for rx/tx values before it runs ethtool -G', async () => {
    const r = await call('mod_bufsize', ['lo']);
    if (r === false) return; // no /sbin/ethtool: Salt answers False too
    expect(r).toEqual({
      result: false,
      comment: 'Requires rx=<val> tx==<val> rx-mini=<val> and/or rx-jumbo=<val>',
    });
    expect(await call('mod_bufsize', ['lo', 'extra', { __kwarg__: true, rx: 10 }])).toEqual({
      result: false,
      comment: 'Unknown arguments: extra',
    });
  });
});
