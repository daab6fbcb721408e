/**
 * The iptables execution module on the real iptables programs, through `salt-call --local` run
 * inside a throwaway network namespace (its own empty tables: the host's are never touched).
 * Expected values are what Salt 3006.18's salt-call returned for the same calls.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IptablesNetns } from '../support/iptables-netns.js';

const ns = new IptablesNetns();
if (ns.unavailable) console.warn(`skipping the iptables module tests: ${ns.unavailable}`);

describe.skipIf(ns.unavailable !== null)('iptables module in a network namespace', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-ipt-'));
  const conf = join(root, 'etc');
  const saved = join(root, 'saved', 'rules.v4');

  const call = async (...args: string[]) => {
    const r = await ns.cli('salt-call', ['--local', '-c', conf, '--out', 'json', ...args]);
    if (!r.stdout.trim()) return { code: r.code, value: undefined as unknown, stderr: r.stderr };
    return { code: r.code, value: (JSON.parse(r.stdout) as { local: unknown }).local, stderr: r.stderr };
  };
  const value = async (...args: string[]) => (await call(...args)).value;

  beforeAll(() => {
    mkdirSync(conf, { recursive: true });
    writeFileSync(
      join(conf, 'minion'),
      `id: ipt\nfile_client: local\nroot_dir: ${JSON.stringify(root)}\niptables.save_filters: ["--dport 53 "]\n`,
    );
  });
  afterAll(() => {
    ns.remove();
    rmSync(root, { recursive: true, force: true });
  });

  it('builds rules from keywords, negations and jump options as Salt does', async () => {
    expect(await value('iptables.version')).toMatch(/^v\d+\.\d+/);
    expect(
      await value(
        'iptables.build_rule',
        'filter',
        'INPUT',
        'command=I',
        'position=3',
        'full=True',
        'match=state',
        'connstate=!RELATED,ESTABLISHED',
        'comment=ssh in',
        'jump=ACCEPT',
      ),
    ).toBe(
      '/usr/sbin/iptables --wait -t filter -I INPUT 3 -m state ! --state RELATED,ESTABLISHED -m comment --comment "ssh in" --jump ACCEPT',
    );
    expect(await value('iptables.build_rule', 'proto=tcp', 'dports=[22,"!80"]', 'jump=ACCEPT')).toBe(
      '-p tcp -m multiport ! --dports 22,80 --jump ACCEPT',
    );
    expect(await value('iptables.build_rule', 'dports=22,80', 'jump=ACCEPT')).toBe(
      'Error: protocol must be specified',
    );
    expect(await value('iptables.build_rule', 'jump=LOG', 'log-prefix=my prefix', 'if=!eth1')).toBe(
      '! -i eth1 --jump LOG --log-prefix "my prefix"',
    );
  });

  it('appends, checks, inserts and reads the live rules', async () => {
    const ssh = 'rule=-p tcp --dport 22 -j ACCEPT';
    expect(await call('iptables.check', 'filter', 'INPUT', ssh)).toMatchObject({ value: false, code: 1 });
    expect(await value('iptables.append', 'filter', 'INPUT', ssh)).toBe(true);
    expect(await value('iptables.append', 'filter', 'INPUT', ssh)).toBe(false);
    expect(await call('iptables.check', 'filter', 'INPUT', ssh)).toMatchObject({ value: true, code: 0 });
    expect(await value('iptables.append', 'filter', 'INPUT')).toBe('Error: Rule needs to be specified');
    expect(
      await value('iptables.insert', 'filter', 'INPUT', 'position=1', 'rule=-p tcp --dport 23 -j DROP'),
    ).toBe('');
    expect(
      await value('iptables.insert', 'filter', 'INPUT', 'position=-1', 'rule=-p udp --dport 53 -j ACCEPT'),
    ).toBe('');
    expect(
      await value(
        'iptables.append',
        'filter',
        'INPUT',
        'rule=! -s 10.0.0.0/8 -p tcp ! --dport 81 -m comment --comment "web rule" -j DROP',
      ),
    ).toBe(true);
    const rules = (await value('iptables.get_rules')) as Record<
      string,
      Record<string, Record<string, unknown>>
    >;
    const input = rules.filter?.INPUT as {
      rules: Record<string, string[]>[];
      rules_comment: Record<string, unknown>;
    };
    expect(input.rules.map((r) => r.destination_port?.[0])).toEqual(['23', '53', '22', '! 81']);
    expect(input.rules[3]).toEqual({
      protocol: ['tcp'],
      // the CLI reads `rule=! -s ...` as YAML, where a leading `!` is a tag: Salt loses it too
      source: ['10.0.0.0/8'],
      jump: ['DROP'],
      match: ['tcp', 'comment'],
      comment: ['web rule'],
      destination_port: ['! 81'],
    });
    expect(Object.keys(input.rules_comment)).toEqual(['web rule']);
    expect(ns.save()).toContain('-A INPUT -p tcp -m tcp --dport 22 -j ACCEPT');
  });

  it('manages chains and policies, saves to a file and reads it back', async () => {
    expect(await value('iptables.new_chain', 'filter', 'TSALT_T')).toBe(true);
    expect(await value('iptables.new_chain', 'filter', 'TSALT_T')).toBe('iptables: Chain already exists.');
    expect(await value('iptables.check_chain', 'filter', 'TSALT_T')).toBe(true);
    expect(await value('iptables.check_chain', 'filter', 'NOPE')).toBe(false);
    expect(await value('iptables.set_policy', 'filter', 'FORWARD', 'DROP')).toBe('');
    expect(await value('iptables.get_policy', 'filter', 'FORWARD')).toBe('DROP');
    expect(await value('iptables.set_policy', 'filter', 'FORWARD')).toBe(
      'Error: Policy needs to be specified',
    );
    expect(await value('iptables.save', saved)).toBe(`Wrote 1 lines to "${saved}"`);
    expect(readFileSync(saved, 'utf8')).toContain(':TSALT_T - [0:0]');
    expect(await value('iptables.get_saved_policy', 'filter', 'FORWARD', `conf_file=${saved}`)).toBe('DROP');
    // iptables.save_filters (the minion config) kept the port 53 rule out of the file
    type Tables = Record<string, Record<string, { rules: Record<string, string[]>[] }>>;
    const live = (await value('iptables.get_rules')) as Tables;
    const fromFile = (await value('iptables.get_saved_rules', `conf_file=${saved}`)) as Tables;
    expect(readFileSync(saved, 'utf8')).not.toContain('--dport 53 ');
    const input = live.filter?.INPUT;
    if (input) input.rules = input.rules.filter((r) => r.destination_port?.[0] !== '53');
    expect(fromFile).toEqual(live);
    const missing = await call('iptables.get_saved_rules', `conf_file=${join(root, 'nope.v4')}`);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No such file or directory');
  });

  it('deletes rules by position or whole, flushes and deletes chains', async () => {
    expect(await value('iptables.delete', 'filter', 'INPUT', 'position=1')).toBe('');
    expect(await value('iptables.delete', 'filter', 'INPUT', 'rule=-p tcp --dport 22 -j ACCEPT')).toBe('');
    expect(await value('iptables.delete', 'filter', 'INPUT', 'position=1', 'rule=x')).toBe(
      'Error: Only specify a position or a rule, not both',
    );
    expect(await value('iptables.flush', 'filter', 'TSALT_T')).toBe('');
    expect(await value('iptables.delete_chain', 'filter', 'TSALT_T')).toBe(true);
    expect(await value('iptables.flush', 'filter')).toBe('');
    expect(ns.save()).not.toContain('-A INPUT');
  });

  it('works on ipv6 through ip6tables', async () => {
    expect(
      await value('iptables.append', 'filter', 'INPUT', 'rule=-p tcp --dport 22 -j ACCEPT', 'family=ipv6'),
    ).toBe(true);
    expect(await value('iptables.set_policy', 'filter', 'INPUT', 'DROP', 'family=ipv6')).toBe('');
    expect(await value('iptables.get_policy', 'filter', 'INPUT', 'family=ipv6')).toBe('DROP');
    expect(ns.save('ipv6')).toContain('-A INPUT -p tcp -m tcp --dport 22 -j ACCEPT');
    expect(ns.save('ipv4')).not.toContain('--dport 22');
  });
});
