import { describe, expect, it } from 'vitest';
import { buildRuleText } from './_iptables-rule.js';

// Expectations: Salt 3006.18's iptables.build_rule with the same keywords, in the same order.
describe('buildRuleText', () => {
  it('maps keywords to options in Salt order, jump and its options last', () => {
    expect(buildRuleText({ jump: 'ACCEPT', match: 'state', connstate: 'RELATED,ESTABLISHED' })).toBe(
      '-m state --state RELATED,ESTABLISHED --jump ACCEPT',
    );
    expect(
      buildRuleText({ 'log-prefix': 'my prefix', jump: 'LOG', 'in-interface': 'lo', 'log-level': 4 }),
    ).toBe('--in-interface lo --jump LOG --log-level 4 --log-prefix "my prefix"');
    expect(buildRuleText({ target: 'ACCEPT', proto: 'tcp', 'tcp-flags': 'SYN,RST SYN', syn: null })).toBe(
      '-p tcp --tcp-flags SYN,RST SYN --syn --jump ACCEPT',
    );
  });
  it('negates with ! or not', () => {
    expect(buildRuleText({ source: '!127.0.0.1', destination: 'not 10.0.0.1', proto: 'not icmp' })).toBe(
      '! -p icmp ! --source 127.0.0.1 ! --destination 10.0.0.1',
    );
    expect(buildRuleText({ if: 'eth0', of: '!eth1', dport: '!22' })).toBe('-i eth0 ! -o eth1 ! --dport 22');
    expect(buildRuleText({ proto: 'tcp', dports: [22, '!80'] })).toBe('-p tcp -m multiport ! --dports 22,80');
  });
  it('drops state keywords and Salt errors without a protocol for multiport', () => {
    expect(
      buildRuleText({ name: 'x', chain: 'INPUT', table: 'filter', save: true, order: 1, jump: 'DROP' }),
    ).toBe('--jump DROP');
    expect(buildRuleText({ dports: '22,80', jump: 'ACCEPT' })).toBe('Error: protocol must be specified');
    expect(buildRuleText({ match: 'recent', name_: 'bad', rcheck: '', seconds: 60 })).toBe(
      '-m recent --name bad --rcheck --seconds 60',
    );
    expect(buildRuleText({ comment: 'a b', match: 'comment' })).toBe('-m comment --comment "a b"');
  });
});
