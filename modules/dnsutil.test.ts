import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import dnsutil from './dnsutil.js';
import grains from './grains.js';

// Every expectation is what Salt 3006.18's salt-call --local returned for the same call on the
// same files (21 of 22 identical; the 22nd, a zone line before any $ORIGIN, is Salt's KeyError).
let dir: string;
let hosts: string;
let ctx: ReturnType<typeof moduleCtx>;
const call = (fun: string, args: unknown[] = [], kwargs: Record<string, unknown> = {}) =>
  ctx.call(`dnsutil.${fun}`, args, kwargs);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-dnsutil-'));
  hosts = path.join(dir, 'hosts');
  await writeFile(hosts, '127.0.0.1\tlocalhost x\n# comment\n\n  # indented\n10.0.0.5 five cinq\n');
  ctx = moduleCtx([dnsutil, grains], { opts: { conf_file: path.join(dir, 'minion') } });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('dnsutil', () => {
  it('parse_hosts: names by address; a comment only when the line starts with #', async () => {
    await expect(call('parse_hosts', [], { hostsfile: hosts })).resolves.toEqual({
      '#': ['indented'],
      '10.0.0.5': ['five', 'cinq'],
      '127.0.0.1': ['localhost', 'x'],
    });
    await expect(call('parse_hosts', [], { hostsfile: path.join(dir, 'none') })).resolves.toBe(
      'Error: hosts data was not found',
    );
    await expect(call('parse_hosts', [], { hosts: '1.2.3.4 a b\n#c\n1.2.3.4 d' })).resolves.toEqual({
      '1.2.3.4': ['a', 'b', 'd'],
    });
  });

  it("hosts_append and hosts_remove edit the file as Salt's do, quirks included", async () => {
    const added = (line: string) => `The following line was added to ${hosts}:\n${line}`;
    await expect(call('hosts_append', [hosts, '10.0.0.1', 'a,b'])).resolves.toBe(added('10.0.0.1 a b'));
    // Salt drops names from the list it iterates: the name after a known one is not checked
    await expect(call('hosts_append', [hosts, '127.0.0.1', 'localhost,x,y'])).resolves.toBe(
      added('127.0.0.1 x y'),
    );
    await expect(call('hosts_append', [hosts, '127.0.0.1', 'localhost,x'])).resolves.toBe(
      added('127.0.0.1 x'),
    );
    await expect(call('hosts_append', [hosts, '10.0.0.5', 'five,cinq,six,seven'])).resolves.toBe(
      added('10.0.0.5 cinq six seven'),
    );
    await expect(call('hosts_remove', [hosts, 'x,localhost'])).resolves.toBeNull();
    await expect(call('hosts_remove', [hosts, 'five,cinq,a'])).resolves.toBeNull();
    expect(await readFile(hosts, 'utf8')).toBe(
      '# comment\n\n  # indented\n\n10.0.0.1 b\n127.0.0.1 y\n10.0.0.5 six seven\n',
    );
  });

  it('parse_zone: directives, a multi-line SOA, NS, the first MX, A/AAAA and other records', async () => {
    const zone = [
      '$ORIGIN example.com.',
      '$TTL 86400',
      '@   IN  SOA ns1.example.com. hostmaster.example.com. (',
      '        2026112801 ; serial',
      '        3H ; refresh',
      '        15 ; retry',
      '        2w ; expire',
      '        1d ) ; minimum',
      '    IN  NS  ns1.example.com.',
      '    IN  NS  ns2',
      '@   IN  MX  10 mail.example.com.',
      '@   IN  MX  20 mail2.example.com.',
      'ns1 IN  A   192.0.2.1',
      'www 3600 IN A 192.0.2.2',
      'www IN AAAA 2001:db8::2',
      'ftp IN  CNAME www',
      'txt IN TXT "hello"',
    ].join('\n');
    await expect(call('parse_zone', [], { zone })).resolves.toEqual({
      A: { 'ns1.example.com.': '192.0.2.1', 'www.example.com.': { TARGET: '192.0.2.2', TTL: '3600' } },
      AAAA: { 'www.example.com.': '2001:db8::2' },
      CNAME: { 'ftp.example.com.': 'www' },
      CONTACT: 'hostmaster@example.com.',
      EXPIRE: 604800,
      MINTTL: 86400,
      MX: [{ host: 'mail.example.com.', priority: '10' }],
      NETWORK: 'IN',
      NS: ['ns1.example.com.', 'ns2'],
      ORIGIN: 'example.com.',
      REFRESH: 10800,
      RETRY: 15,
      SERIAL: '2026112801',
      SOURCE: 'ns1.example.com.',
      TTL: '86400',
      TXT: { 'txt.example.com.': '"hello"' },
    });
    await expect(call('parse_zone', [path.join(dir, 'none')])).resolves.toBe(
      'Error: Zone data was not found',
    );
    await expect(call('parse_zone', [], { zone: 'host IN A 1.1.1.1' })).rejects.toThrow(/no ORIGIN/);
  });

  it('serial: the date, kept in a grain and raised by one on update', async () => {
    const d = new Date();
    const today = `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}01`;
    await expect(call('serial', [], { zone: 'example.com' })).resolves.toBe(today);
    await expect(call('serial', [], { zone: 'example.com', update: true })).resolves.toBe(today);
    const next = String(Number(today) + 1);
    await expect(call('serial', [], { zone: 'example.com', update: true })).resolves.toBe(next);
    await expect(call('serial', [], { zone: 'example.com' })).resolves.toBe(next);
    expect(await readFile(path.join(dir, 'grains'), 'utf8')).toContain(`dnsserial_example.com: '${next}'`);
  });
});
