import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { type DnsServer, startDnsServer } from '../test/support/dns-server.js';
import { invoke } from './_fake-ctx.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import digMod, { checkIp } from './dig.js';

// A real `dig` against a tiny DNS server on a loopback address of its own (port 53: Salt's dig
// functions name a server, never a port, so this needs root, as CI runs). Expectations: Salt
// 3006.18's returns for the same zone and calls (salt-call --local, compared by hand).
const ctx = moduleCtx([digMod, cmdMod]);
const ns = `127.0.${2 + Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
const dig = (fun: string, args: unknown[], kw: Record<string, unknown> = {}) =>
  ctx.call(`dig.${fun}`, args, { nameserver: ns, ...kw });
let server: DnsServer;
const canRun = process.getuid?.() === 0 && which('dig') !== null;

beforeAll(async () => {
  if (!canRun) return;
  server = await startDnsServer(
    {
      'example.test': [
        { type: 'A', value: '192.0.2.10' },
        { type: 'NS', value: 'ns1.example.test' },
        { type: 'NS', value: 'ns2.example.test' },
        { type: 'MX', value: [10, 'mail.example.test'] },
        { type: 'TXT', value: ['v=spf1 ip4:192.0.2.0/24 include:_spf.example.test ~all'] },
        { type: 'TXT', value: ['hello world'] },
      ],
      'www.example.test': [{ type: 'CNAME', value: 'example.test' }],
      'ns1.example.test': [{ type: 'A', value: '192.0.2.53' }],
      'ns2.example.test': [{ type: 'A', value: '192.0.2.54' }],
      'mail.example.test': [
        { type: 'A', value: '192.0.2.25' },
        { type: 'AAAA', value: '2001:db8::25' },
      ],
      '_spf.example.test': [{ type: 'SPF', value: ['v=spf1 ip6:2001:db8::/32 +ip4:198.51.100.7 -all'] }],
      'redir.test': [{ type: 'TXT', value: ['v=spf1 redirect=_spf.example.test'] }],
      '25.2.0.192.in-addr.arpa': [{ type: 'PTR', value: 'mail.example.test' }],
    },
    ns,
  );
});
afterAll(async () => {
  await server?.close();
});

describe('dig.check_ip', () => {
  it("is Salt's check: an address, with a prefix in range", () => {
    const cases: [unknown, boolean][] = [
      ['127.0.0.1', true],
      ['1111:2222:3333:4444:5555:6666:7777:8888', true],
      ['10.0.0.0/8', true],
      ['10.0.0.0/33', false],
      ['10.0.0.0/0', false],
      ['2001:db8::/7', false],
      ['2001:db8::/64', true],
      ['10.0.0.0/x', false],
      ['mail.example.test.', false],
      ['', false],
      [10, false],
    ];
    for (const [addr, want] of cases) expect(checkIp(addr), String(addr)).toBe(want);
  });
});

describe.skipIf(!canRun)('dig lookups against a DNS server of the test', () => {
  it('A, AAAA (a CNAME followed to its addresses), CNAME, PTR', async () => {
    expect(await dig('A', ['example.test'])).toEqual(['192.0.2.10']);
    expect(await dig('A', ['www.example.test'])).toEqual(['192.0.2.10']);
    expect(await dig('a', ['nothere.example.test'])).toEqual([]);
    expect(await dig('AAAA', ['mail.example.test'])).toEqual(['2001:db8::25']);
    expect(await dig('CNAME', ['www.example.test'])).toBe('example.test.');
    expect(await dig('PTR', ['192.0.2.25'])).toEqual(['mail.example.test.']);
  });

  it('NS resolved and not, MX with and without resolve', async () => {
    expect(await dig('NS', ['example.test'])).toEqual(['192.0.2.53', '192.0.2.54']);
    expect(await dig('NS', ['example.test'], { resolve: false })).toEqual([
      'ns1.example.test.',
      'ns2.example.test.',
    ]);
    expect(await dig('MX', ['example.test'])).toEqual([['10', 'mail.example.test.']]);
    expect(await dig('MX', ['example.test'], { resolve: true })).toEqual([['10', '192.0.2.25']]);
    expect(await dig('MX', ['nothere.example.test'])).toEqual([[]]);
  });

  it('TXT, and SPF through TXT, include: and redirect=', async () => {
    expect(await dig('TXT', ['example.test'])).toEqual([
      '"v=spf1 ip4:192.0.2.0/24 include:_spf.example.test ~all"',
      '"hello world"',
    ]);
    expect(await dig('SPF', ['_spf.example.test'])).toEqual(['2001:db8::/32', '198.51.100.7']);
    expect(await dig('SPF', ['redir.test'])).toEqual(['2001:db8::/32', '198.51.100.7']);
    expect(await dig('TXT', ['nothere.example.test'])).toEqual(['']);
  });

  it('a dig that fails gives an empty list', async () => {
    // an address dig cannot parse as a server: dig exits non-zero
    expect(await dig('A', ['example.test'], { nameserver: 'no server here' })).toEqual([]);
    expect(await dig('TXT', ['example.test'], { nameserver: 'no server here' })).toEqual([]);
    // and, as Salt's cmd.run_all leaves it, the job's retcode is dig's exit code
    const failed = await invoke(digMod, 'A', ['example.test', 'nameserver=bad..server'], ctx);
    expect(failed.value).toEqual([]);
    expect(failed.retcode).not.toBe(0);
    expect(await invoke(digMod, 'A', ['example.test', `nameserver=${ns}`], ctx)).toEqual({
      value: ['192.0.2.10'],
      retcode: 0,
    });
  });
});
