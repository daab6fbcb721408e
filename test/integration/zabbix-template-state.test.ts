/**
 * The zabbix_template state through a real masterless `salt-call --local state.apply`,
 * against a throwaway Zabbix 6.0 API (test/support/zabbix-server.ts). Expected values are what
 * Salt 3006.18 printed for the same SLS against the same server (ids left out). On Zabbix 6.0
 * Salt's `present` cannot get far: `template.create` refuses the `hosts` Salt always sends,
 * and for an existing template Salt reads its applications, an API object 6.0 no longer has.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tools/local-cluster.js';
import { type LocalCall, localCaller } from '../support/local-call.js';
import { startZabbixServer, type ZabbixTestServer, zabbixSkipReason } from '../support/zabbix-server.js';

const skip = zabbixSkipReason();
if (skip) console.warn(`skipping the zabbix_template state tests: ${skip}`);

interface Result {
  result: boolean | null;
  comment: string;
  changes: Record<string, unknown>;
}

const SLS: Record<string, string> = {
  tp: `tp:
  zabbix_template.present:
    - name: zbx-tpl
{%- if pillar.get('static') is not none %}
    - static_host_list: {{ pillar.get('static') }}
{%- endif %}
    - params:
        description: {{ pillar.get('desc', 'first') }}
        groups:
          - groupid: {query_object: hostgroup, query_name: Templates}
{%- if pillar.get('hosts') %}
        hosts: {{ pillar['hosts'] | json }}
{%- endif %}
        macros:
          - macro: "{$ZBX_M}"
            value: one
        items:
          - name: zbx item
            key_: zbx.item
            type: 2
            value_type: 0
        discoveries:
          - name: zbx rule
            key_: zbx.rule
            type: 2
            itemprototypes:
              - name: zbx proto {{ '{#X}' }}
                key_: zbx.proto[{{ '{#X}' }}]
                type: 2
                value_type: 3
`,
  tpbad: `nokey:
  zabbix_template.present:
    - name: zbx-tplb
    - params:
        discoveries:
          - name: no key
str:
  zabbix_template.present:
    - name: zbx-tplb
    - params: text
`,
  // a float's text kept through the params' copy and substitute_params (Salt's str(1.0))
  vmf: `vmf:
  zabbix_valuemap.present:
    - name: zbx-vmf
    - params:
        hostid: {query_object: template, query_name: 'Linux by Zabbix agent'}
        mappings:
          - value: 1.0
            newvalue: {{ pillar.get('nv', 'one') }}
`,
  tpgone: `isp:
  zabbix_template.is_present:
    - name: zbx-tpl
gone:
  zabbix_template.absent:
    - name: zbx-tpl
`,
};

/** The last line of an "An exception occurred in this state" comment: the exception. */
const exceptionOf = (comment: string): string => {
  expect(comment).toMatch(/^An exception occurred in this state: Traceback/);
  return comment.trim().split('\n').pop() as string;
};

describe.skipIf(skip !== null)('zabbix_template state against a real Zabbix API', () => {
  let server: ZabbixTestServer;
  let call: LocalCall;
  const root = mkdtempSync(join(tmpdir(), 'tsalt-zabbix-template-'));

  beforeAll(async () => {
    server = await startZabbixServer();
    call = localCaller(root, 'zbxtemplate');
    appendFileSync(
      join(call.etc, 'minion'),
      `zabbix.user: ${server.user}\nzabbix.password: ${server.password}\nzabbix.url: ${server.url}\n`,
    );
    mkdirSync(join(root, 'srv'), { recursive: true });
    for (const [name, text] of Object.entries(SLS)) writeFileSync(join(root, 'srv', `${name}.sls`), text);
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const saltCall = (...args: string[]) =>
    runCli('salt-call', ['-c', call.etc, '--local', '--out', 'json', ...args], 120_000);

  /** `state.apply <sls>`: each state's result, comment and changes, by its ID. */
  const apply = async (sls: string, ...extra: string[]): Promise<Record<string, Result>> => {
    const r = await saltCall('state.apply', sls, ...extra);
    const local = (JSON.parse(r.stdout) as { local: Record<string, Result> }).local;
    return Object.fromEntries(
      Object.entries(local).map(([k, v]) => [
        k.split('_|-')[1],
        { result: v.result, comment: v.comment, changes: v.changes },
      ]),
    );
  };
  const one = async (sls: string, ...extra: string[]): Promise<Result> =>
    Object.values(await apply(sls, ...extra))[0] as Result;

  const tpl = 'Zabbix Template "zbx-tpl"';

  it('present: would create under test=True (result True); a real run fails where Salt fails on Zabbix 6', async () => {
    expect(await one('tp', 'test=True')).toEqual({
      result: true,
      comment: `${tpl} would be created.`,
      changes: {
        'zbx-tpl': { old: `${tpl} does not exist.`, new: `${tpl} would be created according definition.` },
      },
    });
    const made = await one('tp');
    expect(made.result).toBe(false);
    expect(made.changes).toEqual({});
    expect(exceptionOf(made.comment)).toBe(
      'salt.exceptions.SaltException: Zabbix API: Invalid params. (Invalid parameter "/1": unexpected parameter "hosts".)',
    );
    expect((await apply('tpgone')).isp).toEqual({
      result: false,
      comment: `${tpl} does not exist.`,
      changes: {},
    });
  }, 600_000);

  it('present on an existing template: updates it, then stops at the applications Zabbix 6 lacks', async () => {
    await saltCall(
      'zabbix.run_query',
      'template.create',
      '{"host": "zbx-tpl", "groups": [{"groupid": "1"}]}',
    );
    expect((await apply('tpgone', 'test=True')).isp).toEqual({
      result: true,
      comment: `${tpl} exists.`,
      changes: {},
    });
    for (const extra of [['test=True'], [], ['pillar={"static": false}']]) {
      const r = await one('tp', ...extra);
      expect(r.result).toBe(false);
      expect(exceptionOf(r.comment)).toBe(
        'salt.exceptions.SaltException: Zabbix API: Method not found. (Incorrect API "application".)',
      );
    }
    const got = await saltCall(
      'zabbix.run_query',
      'template.get',
      '{"filter": {"host": "zbx-tpl"}, "output": ["description"]}',
    );
    // the template's own fields were updated before the parts were read
    expect(JSON.parse(got.stdout).local).toEqual([{ templateid: expect.any(String), description: 'first' }]);
    const badHosts = await one('tp', 'pillar={"static": false, "hosts": [{"name": "x"}]}');
    expect(exceptionOf(badHosts.comment)).toBe(
      'salt.exceptions.SaltException: List of hosts in template not defined correctly.',
    );
  }, 600_000);

  it('present: bad params fail as Salt fails', async () => {
    const bad = await apply('tpbad');
    expect(exceptionOf(bad.nokey?.comment ?? '')).toBe("KeyError: 'key_'");
    expect(exceptionOf(bad.str?.comment ?? '')).toBe(
      "TypeError: 'str' object does not support item assignment",
    );
  }, 600_000);

  it('absent: would delete under test=True, deletes, then finds nothing', async () => {
    expect((await apply('tpgone', 'test=True')).gone).toEqual({
      result: true,
      comment: `${tpl} would be deleted.`,
      changes: { 'zbx-tpl': { old: `${tpl} exists.`, new: `${tpl} would be deleted.` } },
    });
    expect((await apply('tpgone')).gone).toEqual({
      result: true,
      comment: `${tpl} deleted.`,
      changes: { 'zbx-tpl': { old: `${tpl} existed.`, new: `${tpl} deleted.` } },
    });
    expect((await apply('tpgone')).gone).toEqual({
      result: true,
      comment: `${tpl} does not exist.`,
      changes: {},
    });
  }, 600_000);

  it('zabbix_valuemap: a float in params is sent and compared as Salt writes it (1.0)', async () => {
    const vm = 'Zabbix Value map "zbx-vmf"';
    expect((await one('vmf')).comment).toBe(`${vm} created.`);
    expect((await one('vmf')).comment).toBe(`${vm} already exists and corresponds to a definition.`);
    const fixed = await one('vmf', 'pillar={"nv": "two"}', 'test=True');
    expect((fixed.changes['zbx-vmf'] as { old: string }).old).toMatch(
      new RegExp(
        `^${vm} differs in following parameters: \\{'mappings': \\[\\{'value': '1\\.0', 'newvalue': 'two'\\}\\], 'valuemapid': '\\d+'\\}$`,
      ),
    );
  }, 600_000);
});
