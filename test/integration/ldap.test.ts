/**
 * The ldap3 and ldap (ldapmod) execution modules and the ldap.managed state through a real
 * masterless `salt-call --local`, against a throwaway slapd (modules/_ldap-test-server.ts).
 * Expected values are what Salt 3006.18 printed for the same calls (bytes values as `b'...'`
 * in JSON output). The bind password never shows in the output.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SlapdTestServer, startSlapd } from '../../modules/_ldap-test-server.js';
import { type LocalCall, localCaller } from '../support/local-call.js';

const ALICE = 'uid=alice,ou=people,dc=example,dc=com';
const BOB = 'uid=bob,ou=people,dc=example,dc=com';

describe('ldap3, ldap and ldap.managed against a real slapd', () => {
  let server: SlapdTestServer;
  let call: LocalCall;
  let spec: string;
  const root = mkdtempSync(join(tmpdir(), 'tsalt-ldap-'));

  beforeAll(async () => {
    server = await startSlapd();
    call = localCaller(root, 'ldapmin');
    spec = `{'url': '${server.url}', 'bind': {'method': 'simple', 'dn': '${server.adminDn}', 'password': '${server.password}'}}`;
  }, 120_000);
  afterAll(async () => {
    await server?.destroy();
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(() => server.reset());

  it('searches: entries by DN, values as bytes; a missing base is {}', async () => {
    const r = await call('ldap3.search', spec, `base=${ALICE}`);
    expect(r.local).toEqual({
      [ALICE]: {
        objectClass: ["b'inetOrgPerson'"],
        uid: ["b'alice'"],
        cn: ["b'Alice Liddell'"],
        sn: ["b'Liddell'"],
        mail: ["b'alice@example.com'", "b'al@example.com'"],
      },
    });
    const one = await call('ldap3.search', spec, 'base=dc=example,dc=com', 'scope=onelevel', 'attrlist=[ou]');
    expect(one.local).toEqual({ 'ou=people,dc=example,dc=com': { ou: ["b'people'"] } });
    expect((await call('ldap3.search', spec, 'base=ou=nope,dc=example,dc=com')).local).toEqual({});
  }, 120_000);

  it("raises Salt's LDAPError for a bad bind and a bad filter, without the password", async () => {
    const bad = `{'url': '${server.url}', 'bind': {'method': 'simple', 'dn': '${server.adminDn}', 'password': 'Wr0ng-pw-x'}}`;
    const r = await call('ldap3.search', bad, 'base=dc=example,dc=com');
    expect(r.code).toBe(1);
    expect(r.output).toContain(
      "LDAPError: exception in ldap backend: INVALID_CREDENTIALS({'msgtype': 97, 'msgid': 1, 'result': 49, 'desc': 'Invalid credentials', 'ctrls': []})",
    );
    expect(r.output).not.toContain('Wr0ng-pw-x');
    const f = await call('ldap3.search', spec, 'base=dc=example,dc=com', 'filterstr=(uid=alice');
    expect(f.output).toContain(
      "exception in ldap backend: FILTER_ERROR({'result': -7, 'desc': 'Bad search filter', 'ctrls': []})",
    );
    expect(f.output).not.toContain(server.password);
  }, 120_000);

  it('adds, changes and deletes entries; errors carry the server info', async () => {
    const add = await call(
      'ldap3.add',
      spec,
      `dn=${BOB}`,
      "attributes={'objectClass': ['inetOrgPerson'], 'uid': ['bob'], 'cn': ['Bob'], 'sn': ['B']}",
    );
    expect(add.local).toBe(true);
    expect(server.tool('ldapsearch', ['-LLL', '-b', BOB, 'cn'])).toContain('cn: Bob');
    const again = await call(
      'ldap3.add',
      spec,
      `dn=${BOB}`,
      "attributes={'objectClass': ['inetOrgPerson'], 'uid': ['bob'], 'cn': ['Bob'], 'sn': ['B']}",
    );
    expect(again.output).toContain(
      "ALREADY_EXISTS({'msgtype': 105, 'msgid': 2, 'result': 68, 'desc': 'Already exists', 'ctrls': []})",
    );
    const ch = await call(
      'ldap3.change',
      spec,
      `dn=${ALICE}`,
      "before={'mail': ['alice@example.com', 'al@example.com']}",
      "after={'mail': ['alice@example.com'], 'description': ['hi']}",
    );
    expect(ch.local).toBe(true);
    const alice = server.tool('ldapsearch', ['-LLL', '-b', ALICE, 'mail', 'description']);
    expect(alice).toContain('description: hi');
    expect(alice).not.toContain('al@example.com');
    expect((await call('ldap3.delete', spec, `dn=${BOB}`)).local).toBe(true);
    const gone = await call('ldap3.delete', spec, `dn=${BOB}`);
    expect(gone.output).toContain(
      "NO_SUCH_OBJECT({'msgtype': 107, 'msgid': 2, 'result': 32, 'desc': 'No such object', 'ctrls': [], 'matched': 'ou=people,dc=example,dc=com'})",
    );
  }, 180_000);

  it('ldap.search (ldapmod): results, count and time; a bad bind is a clean error', async () => {
    const r = await call(
      'ldap.search',
      '(uid=alice)',
      'dn=dc=example,dc=com',
      'scope=2',
      'attrs=[cn]',
      `uri=${server.url}`,
      'anonymous=True',
    );
    const local = r.local as { results: unknown; count: number; time: { human: string; raw: string } };
    expect(local.results).toEqual([[ALICE, { cn: ["b'Alice Liddell'"] }]]);
    expect(local.count).toBe(1);
    expect(local.time.human).toMatch(/^[0-9.]+m?s$/);
    const bad = await call(
      'ldap.search',
      '(uid=alice)',
      `uri=${server.url}`,
      `binddn=${server.adminDn}`,
      'bindpw=Wr0ng-pw-x',
      'anonymous=False',
    );
    expect(bad.output).toContain(
      `Failed to bind to LDAP server ${server.url} as ${server.adminDn}: {'msgtype': 97, 'msgid': 1, 'result': 49, 'desc': 'Invalid credentials', 'ctrls': []}`,
    );
    expect(bad.output).not.toContain('Wr0ng-pw-x');
  }, 120_000);

  it('ldap.managed: test=True, then the change, then nothing left to do', async () => {
    const entries = JSON.stringify([
      { [ALICE]: [{ replace: { cn: 'Alice L' } }, { add: { description: ['d1'] } }] },
      { [BOB]: [{ add: { objectClass: 'inetOrgPerson', uid: 'bob', cn: 'Bob', sn: 'B' } }] },
    ]);
    const run = async (...extra: string[]) => {
      const r = await call(
        'state.single',
        'ldap.managed',
        `name=${server.url}`,
        `entries=${entries}`,
        `connect_spec=${spec}`,
        ...extra,
      );
      const out = r.local as Record<string, { result: boolean | null; comment: string; changes: unknown }>;
      return Object.values(out)[0];
    };
    const changes = {
      [ALICE]: { old: { cn: ["b'Alice Liddell'"] }, new: { cn: ["b'Alice L'"], description: ["b'd1'"] } },
      [BOB]: {
        old: null,
        new: { objectClass: ["b'inetOrgPerson'"], uid: ["b'bob'"], cn: ["b'Bob'"], sn: ["b'B'"] },
      },
    };
    const t = await run('test=True');
    expect(t).toMatchObject({ result: null, comment: 'Would change LDAP entries', changes });
    expect(server.tool('ldapsearch', ['-LLL', '-b', 'ou=people,dc=example,dc=com', 'uid'])).not.toContain(
      'uid: bob',
    );
    const done = await run();
    expect(done).toMatchObject({ result: true, comment: 'Successfully updated LDAP entries', changes });
    expect(server.tool('ldapsearch', ['-LLL', '-b', BOB, 'cn'])).toContain('cn: Bob');
    expect(await run()).toMatchObject({ result: true, comment: 'LDAP entries already set', changes: {} });
  }, 240_000);
});
