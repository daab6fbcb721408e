/**
 * The zabbix execution module and the zabbix_hostgroup/zabbix_usergroup states through a real
 * masterless `salt-call --local`, against a throwaway Zabbix 6.0 API (test/support/zabbix-server.ts:
 * Debian's frontend under `php -S`, over a private PostgreSQL). Expected values are what Salt
 * 3006.18 printed for the same calls against the same server. Ids given on the command line
 * are YAML ints, and Zabbix echoes them back as given. The password never shows in the output.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tools/local-cluster.js';
import { type LocalCall, localCaller } from '../support/local-call.js';
import { startZabbixServer, type ZabbixTestServer, zabbixSkipReason } from '../support/zabbix-server.js';

const skip = zabbixSkipReason();
if (skip) console.warn(`skipping the zabbix tests: ${skip}`);

const ID = /^\d+$/;

describe.skipIf(skip !== null)('zabbix module and states against a real Zabbix API', () => {
  let server: ZabbixTestServer;
  let call: LocalCall;
  let conn: string[];
  const root = mkdtempSync(join(tmpdir(), 'tsalt-zabbix-'));

  beforeAll(async () => {
    server = await startZabbixServer();
    call = localCaller(root, 'zbxmin');
    conn = [
      `_connection_user=${server.user}`,
      `_connection_password=${server.password}`,
      `_connection_url=${server.url}`,
    ];
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('logs in with the _connection_* keywords, or with the zabbix.* options', async () => {
    const v = await call('zabbix.apiinfo_version', ...conn);
    expect(v.code).toBe(0);
    expect(v.local).toMatch(/^6\.0\.\d+$/);
    const withOpts = localCaller(join(root, 'opts'), 'zbxopts');
    appendFileSync(
      join(withOpts.etc, 'minion'),
      `zabbix.user: ${server.user}\nzabbix.password: ${server.password}\nzabbix.url: ${server.url}\n`,
    );
    const got = await withOpts('zabbix.hostgroup_get', 'Linux servers');
    expect(got.local).toEqual([
      {
        groupid: '2',
        name: 'Linux servers',
        internal: '0',
        flags: '0',
        uuid: 'dc579cd7a1a34222933f24f52a68bcd8',
      },
    ]);
  }, 120_000);

  it("fails with Salt's SaltException texts, never showing the password", async () => {
    const bad = await call(
      'zabbix.hostgroup_list',
      '_connection_user=Admin',
      '_connection_password=s3cret-wrong',
      `_connection_url=${server.url}`,
    );
    expect(bad.code).toBe(1);
    expect(bad.output).toContain(
      'Zabbix API: Application error. (Incorrect user name or password or account is temporarily blocked.)',
    );
    expect(bad.output).not.toContain('s3cret-wrong');
    const refused = await call(
      'zabbix.hostgroup_list',
      ...conn.slice(0, 2),
      '_connection_url=http://127.0.0.1:1/api_jsonrpc.php',
    );
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('Zabbix API: Status: 0 ([Errno 111] Connection refused)');
    const noUser = await call('zabbix.hostgroup_list', ...conn.slice(1));
    expect(noUser.output).toContain("URL is probably not correct! ('user')");
    const apiError = await call('zabbix.run_query', 'hostgroup.create', '{"bogus": 1}', ...conn);
    // an uncaught SaltException: salt-call prints it as Salt's global exception handler does
    expect(apiError.code).toBe(1);
    expect(apiError.local).toBeUndefined();
    expect(apiError.output).toContain(
      'Zabbix API: Invalid params. (Invalid parameter "/1": unexpected parameter "bogus".)',
    );
  }, 120_000);

  it('creates, renames, finds and deletes a host group', async () => {
    const created = await call('zabbix.hostgroup_create', 'zbx-test-group', ...conn);
    expect(created.local).toEqual([expect.stringMatching(ID)]);
    const gid = (created.local as string[])[0] as string;
    expect((await call('zabbix.hostgroup_exists', 'zbx-test-group', ...conn)).local).toBe(true);
    expect((await call('zabbix.hostgroup_update', gid, 'name=zbx-test-group2', ...conn)).local).toEqual([
      gid,
    ]);
    const got = await call('zabbix.hostgroup_get', 'zbx-test-group2', ...conn);
    expect(got.local).toEqual([
      expect.objectContaining({ groupid: gid, name: 'zbx-test-group2', internal: '0' }),
    ]);
    expect((await call('zabbix.hostgroup_get', ...conn)).local).toBe(false);
    expect(
      (
        await call(
          'zabbix.get_object_id_by_params',
          'hostgroup',
          '{"filter": {"name": "zbx-test-group2"}}',
          ...conn,
        )
      ).local,
    ).toBe(gid);
    expect(
      (
        await call(
          'zabbix.substitute_params',
          '{"a": [{"query_object": "hostgroup", "query_name": "zbx-test-group2"}, 1, true]}',
          ...conn,
        )
      ).local,
    ).toEqual({ a: [gid, '1', 'True'] });
    expect((await call('zabbix.hostgroup_delete', gid, ...conn)).local).toEqual([Number(gid)]);
    expect((await call('zabbix.hostgroup_exists', 'zbx-test-group2', ...conn)).local).toBe(false);
    const none = await call(
      'zabbix.get_object_id_by_params',
      'hostgroup',
      '{"filter": {"name": "zbx-test-group2"}}',
      ...conn,
    );
    expect(none.output).toContain(
      "Zabbix API: Object does not exist or bad Zabbix user permissions or other unexpected result. Called method hostgroup.get with params {'filter': {'name': 'zbx-test-group2'}}. Result: False",
    );
  }, 300_000);

  it('manages a host, its interfaces, inventory and macros', async () => {
    const iface = '{"type": 1, "main": 1, "useip": 1, "ip": "127.0.0.1", "dns": "", "port": "10050"}';
    const created = await call(
      'zabbix.host_create',
      'zbx-test-host',
      '2',
      iface,
      'visible_name=Visible Host',
      ...conn,
    );
    expect(created.local).toEqual([expect.stringMatching(ID)]);
    const hid = (created.local as string[])[0] as string;
    const got = await call('zabbix.host_get', 'zbx-test-host', ...conn);
    expect(got.local).toEqual([
      expect.objectContaining({ hostid: hid, host: 'zbx-test-host', name: 'Visible Host' }),
    ]);
    // Salt's default port for if_type 2 is INTERFACE_DEFAULT_PORTS[2], 623
    const snmp = await call(
      'zabbix.hostinterface_create',
      hid,
      '127.0.0.2',
      'if_type=2',
      'details={"version": 2, "community": "public"}',
      ...conn,
    );
    expect(snmp.local).toEqual([expect.stringMatching(ID)]);
    const ifaces = (await call('zabbix.hostinterface_get', hid, ...conn)).local as Record<string, string>[];
    expect(ifaces.map((i) => [i.ip, i.port, i.type])).toEqual([
      ['127.0.0.1', '10050', '1'],
      ['127.0.0.2', '623', '2'],
    ]);
    expect((await call('zabbix.host_update', hid, 'groups=[2, 4]', ...conn)).local).toEqual([Number(hid)]);
    const groups = (await call('zabbix.hostgroup_get', `hostids=${hid}`, ...conn)).local as {
      groupid: string;
    }[];
    expect(groups.map((g) => g.groupid).sort()).toEqual(['2', '4']);
    expect((await call('zabbix.host_inventory_get', hid, ...conn)).local).toBe(false);
    expect((await call('zabbix.host_inventory_set', hid, 'asset_tag=jml3322', ...conn)).local).toEqual({
      hostids: [Number(hid)],
    });
    expect((await call('zabbix.host_inventory_get', hid, ...conn)).local).toMatchObject({
      asset_tag: 'jml3322',
    });
    const macro = await call('zabbix.usermacro_create', '{$ZBXTEST}', 'v1', hid, ...conn);
    expect(macro.local).toMatch(ID);
    const macros = await call('zabbix.usermacro_get', '{$ZBXTEST}', `hostids=${hid}`, ...conn);
    expect(macros.local).toEqual([expect.objectContaining({ macro: '{$ZBXTEST}', value: 'v1' })]);
    expect((await call('zabbix.usermacro_delete', String(macro.local), ...conn)).local).toEqual([
      macro.local,
    ]);
    expect((await call('zabbix.host_delete', hid, ...conn)).local).toEqual([hid]);
    expect((await call('zabbix.host_exists', 'zbx-test-host', ...conn)).local).toBe(false);
  }, 300_000);

  it('manages users and user groups; media methods Zabbix 4.0 removed answer so', async () => {
    const ug = await call('zabbix.usergroup_create', 'zbx-test-ug', 'gui_access=1', ...conn);
    expect(ug.local).toEqual([expect.stringMatching(ID)]);
    const ugid = (ug.local as string[])[0] as string;
    const user = await call(
      'zabbix.user_create',
      'zbx-test-user',
      'Pass-word-123!',
      ugid,
      'roleid=1',
      'firstname=First',
      ...conn,
    );
    expect(user.local).toEqual([expect.stringMatching(ID)]);
    const uid = (user.local as string[])[0] as string;
    expect((await call('zabbix.user_exists', 'zbx-test-user', ...conn)).local).toBe(true);
    const got = (await call('zabbix.user_get', 'zbx-test-user', ...conn)).local as Record<string, unknown>[];
    expect(got[0]).toMatchObject({
      userid: uid,
      username: 'zbx-test-user',
      name: 'First',
      usrgrps: [expect.objectContaining({ usrgrpid: ugid })],
    });
    expect((await call('zabbix.user_get', ...conn)).local).toEqual({
      result: false,
      comment: 'Please submit alias or userids parameter to retrieve users.',
    });
    expect(
      (await call('zabbix.user_addmedia', uid, '0', '1', '1-7,00:00-24:00', 'a@b.c', '63', ...conn)).local,
    ).toEqual({
      result: false,
      comment: "Method 'user.addmedia' removed in Zabbix 4.0+ use 'user.update'",
    });
    expect((await call('zabbix.user_delete', uid, ...conn)).local).toEqual([uid]);
    expect((await call('zabbix.usergroup_delete', ugid, ...conn)).local).toEqual([ugid]);
    expect((await call('zabbix.usergroup_exists', 'zbx-test-ug', ...conn)).local).toBe(false);
  }, 300_000);

  it("mediatype_create answers the whole API response, as Salt's looks for a key Zabbix does not send", async () => {
    const r = await call('zabbix.mediatype_create', 'zbx-test-mt', '1', 'exec_path=notify.sh', ...conn);
    expect(r.local).toEqual({ jsonrpc: '2.0', result: { mediatypeids: [expect.stringMatching(ID)] }, id: 0 });
    const id = (r.local as { result: { mediatypeids: string[] } }).result.mediatypeids[0] as string;
    expect((await call('zabbix.mediatype_delete', id, ...conn)).local).toEqual([id]);
  }, 120_000);

  it('zabbix_hostgroup and zabbix_usergroup states: test run, create, no change, update, absent', async () => {
    const srv = join(root, 'srv');
    mkdirSync(srv, { recursive: true });
    const c = `_connection_user: ${server.user}\n    - _connection_password: ${server.password}\n    - _connection_url: ${server.url}`;
    writeFileSync(
      join(srv, 'zbx.sls'),
      `grp:\n  zabbix_hostgroup.present:\n    - name: zbx-state-group\n    - ${c}\nug:\n  zabbix_usergroup.present:\n    - name: zbx-state-ug\n    - gui_access: {{ pillar.get('gui', 0) }}\n    - ${c}\n`,
    );
    writeFileSync(
      join(srv, 'zbxgone.sls'),
      `grp:\n  zabbix_hostgroup.absent:\n    - name: zbx-state-group\n    - ${c}\nug:\n  zabbix_usergroup.absent:\n    - name: zbx-state-ug\n    - ${c}\n`,
    );
    const apply = async (sls: string, ...extra: string[]) => {
      const r = await runCli(
        'salt-call',
        ['-c', call.etc, '--local', '--out', 'json', 'state.apply', sls, ...extra],
        120_000,
      );
      const local = (JSON.parse(r.stdout) as { local: Record<string, Record<string, unknown>> }).local;
      return Object.fromEntries(
        Object.entries(local).map(([k, v]) => [
          k.split('_|-')[1],
          { result: v.result, comment: v.comment, changes: v.changes },
        ]),
      );
    };
    expect(await apply('zbx', 'test=True')).toEqual({
      grp: {
        result: null,
        comment: 'Host group zbx-state-group created.',
        changes: {
          'zbx-state-group': {
            old: 'Host group zbx-state-group does not exist.',
            new: 'Host group zbx-state-group created.',
          },
        },
      },
      ug: { result: null, comment: 'User group zbx-state-ug created.', changes: {} },
    });
    expect(await apply('zbx')).toEqual({
      grp: {
        result: true,
        comment: 'Host group zbx-state-group created.',
        changes: {
          'zbx-state-group': {
            old: 'Host group zbx-state-group does not exist.',
            new: 'Host group zbx-state-group created.',
          },
        },
      },
      ug: {
        result: true,
        comment: 'User group zbx-state-ug created.',
        changes: {
          'zbx-state-ug': {
            old: 'User group zbx-state-ug does not exist.',
            new: 'User group zbx-state-ug created.',
          },
        },
      },
    });
    expect(await apply('zbx')).toEqual({
      grp: { result: true, comment: 'Host group zbx-state-group already exists.', changes: {} },
      ug: { result: true, comment: 'User group zbx-state-ug already exists.', changes: {} },
    });
    expect((await apply('zbx', 'pillar={"gui": 2}')).ug).toEqual({
      result: true,
      comment: 'User group zbx-state-ug updated.',
      changes: { gui_access: 2 },
    });
    expect(await apply('zbxgone')).toEqual({
      grp: {
        result: true,
        comment: 'Host group zbx-state-group deleted.',
        changes: {
          'zbx-state-group': {
            old: 'Host group zbx-state-group exists.',
            new: 'Host group zbx-state-group deleted.',
          },
        },
      },
      ug: {
        result: true,
        comment: 'User group zbx-state-ug deleted.',
        changes: {
          'zbx-state-ug': { old: 'User group zbx-state-ug exists.', new: 'User group zbx-state-ug deleted.' },
        },
      },
    });
    expect((await apply('zbxgone')).grp).toEqual({
      result: true,
      comment: 'Host group zbx-state-group does not exist.',
      changes: {},
    });
  }, 600_000);
});
