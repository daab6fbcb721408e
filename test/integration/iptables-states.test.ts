/**
 * The iptables states through a real master and minion, both started inside a throwaway network
 * namespace (its own loopback and empty tables): an SLS of rules, a chain and a policy, one rule
 * saved to a temp file, applied with test=True, for real, then again with nothing left to do.
 * Comments are those Salt 3006.18's states return for the same SLS.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, Daemon, jsonDocuments, REPO } from '../../tools/local-cluster.js';
import { IptablesNetns } from '../support/iptables-netns.js';

type Entry = {
  result: boolean | null;
  comment: string;
  changes: Record<string, unknown>;
  __run_num__: number;
};

const ns = new IptablesNetns();
if (ns.unavailable) console.warn(`skipping the iptables state tests: ${ns.unavailable}`);

const IPT = '/usr/sbin/iptables --wait -t filter';

describe.skipIf(ns.unavailable !== null)(
  'iptables states through a master and a minion in a namespace',
  () => {
    const c = new Cluster({});
    const srv = join(c.root, 'srv');
    const saved = join(c.root, 'saved', 'fw.v4');
    const node = (cli: string, args: string[]) =>
      ns.argv(process.execPath, [join(REPO, 'dist/cli', `${cli}.js`), ...args]);

    const apply = async (...args: string[]) => {
      const r = await ns.cli(
        'salt',
        ['-c', c.confDir, '--out', 'json', 'm1', 'state.apply', 'fw', ...args],
        120_000,
      );
      const data = Object.assign({}, ...jsonDocuments(r.stdout)) as Record<string, Record<string, Entry>>;
      const ret = data.m1;
      if (!ret) throw new Error(`no return from m1: ${r.stdout}\n${r.stderr}`);
      return { code: r.code, ret };
    };
    const byId = (ret: Record<string, Entry>): Record<string, Entry> =>
      Object.fromEntries(Object.entries(ret).map(([tag, e]) => [tag.split('_|-')[1], e]));

    beforeAll(async () => {
      mkdirSync(srv, { recursive: true });
      writeFileSync(
        join(srv, 'fw.sls'),
        `allow-lo:
  iptables.append:
    - chain: INPUT
    - in-interface: lo
    - jump: ACCEPT
allow-est:
  iptables.insert:
    - chain: INPUT
    - position: 1
    - match: state
    - connstate: RELATED,ESTABLISHED
    - jump: ACCEPT
allow-ssh:
  iptables.append:
    - chain: INPUT
    - proto: tcp
    - dport: 22
    - source: '!192.0.2.0/24'
    - comment: ssh from anywhere
    - jump: ACCEPT
    - save: ${saved}
custom:
  iptables.chain_present:
    - name: TSALT_FW
default-drop:
  iptables.set_policy:
    - chain: INPUT
    - policy: DROP
    - require:
      - iptables: allow-ssh
`,
      );
      await c.writeMasterConfig();
      writeFileSync(
        join(c.confDir, 'master'),
        `${readFileSync(join(c.confDir, 'master'), 'utf8')}file_roots: {"base": ["${srv}"]}\n`,
      );
      c.master = new Daemon('master', 'salt-master', node('salt-master', ['-c', c.confDir]), undefined, 'ip');
      await c.master.waitFor('salt-master started', 60_000);
      const dir = c.minionConfDir('m1');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'minion'),
        `id: m1\nroot_dir: ${JSON.stringify(join(c.root, 'minions', 'm1'))}\nmaster: 127.0.0.1\nmaster_port: ${c.retPort}\nacceptance_wait_time: 1\nlog_level: info\n`,
      );
      const minion = new Daemon(
        'minion m1',
        'salt-minion',
        node('salt-minion', ['-c', dir]),
        undefined,
        'ip',
      );
      c.minions.set('m1', minion);
      await minion.waitFor('salt-minion started', 60_000);
    }, 120_000);
    afterAll(async () => {
      await c.stop();
      ns.remove();
    });

    it('predicts every change under test=True and changes nothing', async () => {
      const { ret } = await apply('test=True');
      const e = byId(ret);
      expect(e['allow-lo']).toMatchObject({
        result: null,
        changes: {},
        comment: `iptables rule for allow-lo needs to be set (${IPT} -A INPUT  --in-interface lo --jump ACCEPT) for ipv4`,
      });
      expect(e['allow-est']?.comment).toBe(
        `iptables rule for allow-est needs to be set for ipv4 (${IPT} -I INPUT 1 -m state --state RELATED,ESTABLISHED --jump ACCEPT)`,
      );
      expect(e.custom?.comment).toBe('iptables TSALT_FW chain in filter table needs to be set for ipv4');
      expect(e['default-drop']?.comment).toBe(
        'iptables default policy for chain INPUT on table filter for ipv4 needs to be set to DROP',
      );
      expect(ns.save()).not.toContain('-A INPUT');
    });

    it('applies the rules, the chain, the policy and saves to the named file', async () => {
      const { code, ret } = await apply();
      expect(code).toBe(0);
      const e = byId(ret);
      expect(Object.values(e).every((x) => x.result === true)).toBe(true);
      expect(e['allow-ssh']).toMatchObject({
        changes: { locale: 'allow-ssh' },
        comment: `Set and saved iptables rule allow-ssh for ipv4\n${IPT} -A INPUT  -p tcp --dport 22 -m comment --comment "ssh from anywhere" ! --source 192.0.2.0/24 --jump ACCEPT\nWrote 1 lines to "${saved}"`,
      });
      expect(e['default-drop']?.comment).toBe('Set default policy for INPUT to DROP family ipv4');
      const live = ns.save();
      expect(live).toContain(':INPUT DROP');
      expect(live).toContain(':TSALT_FW - [0:0]');
      const rules = live.split('\n').filter((l) => l.startsWith('-A INPUT'));
      expect(rules).toEqual([
        '-A INPUT -m state --state RELATED,ESTABLISHED -j ACCEPT',
        '-A INPUT -i lo -j ACCEPT',
        '-A INPUT ! -s 192.0.2.0/24 -p tcp -m tcp --dport 22 -m comment --comment "ssh from anywhere" -j ACCEPT',
      ]);
      // saved after allow-ssh, before the chain and the policy
      const file = readFileSync(saved, 'utf8');
      expect(file).toContain('--comment "ssh from anywhere"');
      expect(file).toContain(':INPUT ACCEPT');
    });

    it('finds everything in place the second time', async () => {
      const { code, ret } = await apply();
      expect(code).toBe(0);
      const e = byId(ret);
      expect(Object.values(e).every((x) => x.result === true && Object.keys(x.changes).length === 0)).toBe(
        true,
      );
      expect(e['allow-lo']?.comment).toBe(
        `iptables rule for allow-lo already set (${IPT} -A INPUT  --in-interface lo --jump ACCEPT) for ipv4`,
      );
      // the saved file differs from the live tables now (the chain and the policy): saved again
      expect(e['allow-ssh']?.comment).toContain(`\nSaved iptables rule allow-ssh for ipv4\n${IPT} -A INPUT`);
      expect(readFileSync(saved, 'utf8')).toContain(':TSALT_FW');
      expect(e.custom?.comment).toBe('iptables TSALT_FW chain is already exist in filter table for ipv4');
    });
  },
);
