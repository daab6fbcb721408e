import { describe, expect, it } from 'vitest';
import { ipcidrMatch, parseIpTarget } from './ipcidr.js';

const grains = { ipv4: ['127.0.0.1', '192.168.1.20'], ipv6: ['::1', 'fe80::1:2'] };

describe('ipcidr', () => {
  it.each([
    ['127.0.0.0/8', true],
    ['10.0.0.0/8', false],
    ['192.168.1.0/24', true],
    ['192.168.1.0/255.255.255.0', true],
    ['192.168.1.20', true],
    ['192.168.1.21', false],
    ['0.0.0.0/0', true],
    ['::1', true],
    ['fe80::/64', true],
    ['2001:db8::/32', false],
    ['::ffff:0:0/96', false],
  ])('%s → %s', (tgt, expected) => {
    expect(ipcidrMatch(parseIpTarget(tgt), grains)).toBe(expected);
  });

  it.each(['127.0.0.1/8', '300.1.1.1', 'web*', '', '10.0.0.0/33', '01.2.3.4'])('%s is invalid', (tgt) => {
    expect(() => parseIpTarget(tgt)).toThrow(/invalid IP\/CIDR target/);
  });

  it('a minion without address grains matches nothing', () => {
    expect(ipcidrMatch(parseIpTarget('0.0.0.0/0'), {})).toBe(false);
  });
});
