// The ddns module and states through a real masterless salt-call of tsalt against a private
// BIND 9 (test/support/bind-server.ts) that verifies the TSIG keys; each change is checked by
// asking the server with dig. The returns are Salt 3006.18's for the same calls (/tmp/ddns24 harness).
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BindTestServer, bindSkipReason, startBindServer } from '../support/bind-server.js';
import { localCaller } from '../support/local-call.js';

const skip = bindSkipReason();
const root = mkdtempSync(join(tmpdir(), 'tsalt-ddns-'));

describe.skipIf(skip !== null)('ddns module and states over a real bind9', () => {
  const call = localCaller(root, 'ddns1');
  let bind: BindTestServer;
  const port = () => `port=${bind.port}`;
  const md5 = () => `keyfile=${bind.keyfiles.md5}`;
  const sha = () => [`keyfile=${bind.keyfiles.sha256}`, 'keyalgorithm=hmac-sha256'];
  const state = async (fn: string, ...args: string[]) => {
    const r = await call('state.single', fn, ...args);
    const ret = Object.values(r.local as Record<string, Record<string, unknown>>)[0] ?? {};
    return { result: ret.result, changes: ret.changes, comment: ret.comment };
  };
  beforeAll(async () => {
    bind = await startBindServer();
  }, 120_000);
  afterAll(async () => {
    await bind?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('adds a record signed with HMAC-MD5, then answers None for the same record and TTL', async () => {
    expect(
      (await call('ddns.update', 'example.test', 'h1', '60', 'A', '192.0.2.10', port(), md5())).local,
    ).toBe(true);
    expect(bind.lookup('h1.example.test', 'A')).toEqual(['192.0.2.10']);
    expect(
      (await call('ddns.update', 'example.test', 'h1', '60', 'A', '192.0.2.10', port(), md5())).local,
    ).toBe(null);
    // another TTL is not the same record: it is added again (the server keeps one, with the new TTL)
    expect(
      (await call('ddns.update', 'example.test', 'h1', '120', 'A', '192.0.2.10', port(), md5())).local,
    ).toBe(true);
  }, 120_000);

  it('adds or replaces with an HMAC-SHA256 key', async () => {
    expect(
      (await call('ddns.update', 'example.test', 'h2', '60', 'A', '192.0.2.21', port(), ...sha())).local,
    ).toBe(true);
    expect(
      (await call('ddns.update', 'example.test', 'h2', '60', 'A', '192.0.2.22', port(), ...sha())).local,
    ).toBe(true);
    expect(bind.lookup('h2.example.test', 'A').sort()).toEqual(['192.0.2.21', '192.0.2.22']);
    const r = await call(
      'ddns.update',
      'example.test',
      'h2',
      '60',
      'A',
      '192.0.2.23',
      'replace=True',
      port(),
      ...sha(),
    );
    expect(r.local).toBe(true);
    expect(bind.lookup('h2.example.test', 'A')).toEqual(['192.0.2.23']);
  }, 120_000);

  it('answers False when the server refuses an unsigned update, and raises as Salt does for a wrong key', async () => {
    expect((await call('ddns.update', 'example.test', 'h3', '60', 'A', '192.0.2.30', port())).local).toBe(
      false,
    );
    const bad = await call(
      'ddns.update',
      'example.test',
      'h3',
      '60',
      'A',
      '192.0.2.30',
      port(),
      `keyfile=${bind.keyfiles.wrong}`,
    );
    expect(bad.code).toBe(1);
    expect(bad.local).toBeUndefined();
    expect(bad.output).toContain("PeerBadSignature: The peer didn't like the signature we sent");
    expect(bind.lookup('h3.example.test', 'A')).toEqual([]);
  }, 120_000);

  it('updates a zone open to 127.0.0.1 without a key: TXT, CNAME and an absolute name', async () => {
    expect(
      (await call('ddns.update', 'open.test', 't1', '60', 'TXT', '"hello world" two', port())).local,
    ).toBe(true);
    expect(bind.lookup('t1.open.test', 'TXT')).toEqual(['"hello world" "two"']);
    expect(
      (await call('ddns.update', 'open.test', 't1', '60', 'TXT', '"hello world" two', port())).local,
    ).toBe(null);
    expect(
      (await call('ddns.update', 'open.test', 'c1.open.test.', '60', 'CNAME', 'Target.open.test.', port()))
        .local,
    ).toBe(true);
    expect(
      (await call('ddns.update', 'open.test', 'c1', '60', 'CNAME', 'target.open.test.', port())).local,
    ).toBe(null);
    expect(bind.lookup('c1.open.test', 'CNAME')).toEqual(['Target.open.test.']);
  }, 120_000);

  it('deletes one record, a type, or a whole name; None when nothing matches', async () => {
    await call('ddns.update', 'example.test', 'd1', '60', 'A', '192.0.2.40', port(), md5());
    await call('ddns.update', 'example.test', 'd1', '60', 'A', '192.0.2.41', port(), md5());
    await call('ddns.update', 'example.test', 'd1', '60', 'TXT', 'x', port(), md5());
    // a record the name does not hold: Salt still sends the delete (the name has A records) and
    // the server takes it, changing nothing
    expect((await call('ddns.delete', 'example.test', 'd1', 'A', '192.0.2.99', port(), md5())).local).toBe(
      true,
    );
    expect(bind.lookup('d1.example.test', 'A').sort()).toEqual(['192.0.2.40', '192.0.2.41']);
    expect((await call('ddns.delete', 'example.test', 'd1', 'A', '192.0.2.40', port(), md5())).local).toBe(
      true,
    );
    expect(bind.lookup('d1.example.test', 'A')).toEqual(['192.0.2.41']);
    expect((await call('ddns.delete', 'example.test', 'd1', 'A', port(), md5())).local).toBe(true);
    expect(bind.lookup('d1.example.test', 'A')).toEqual([]);
    expect(bind.lookup('d1.example.test', 'TXT')).toEqual(['"x"']);
    expect((await call('ddns.delete', 'example.test', 'd1', port(), md5())).local).toBe(true);
    expect(bind.lookup('d1.example.test', 'TXT')).toEqual([]);
    expect((await call('ddns.delete', 'example.test', 'd1', port(), md5())).local).toBe(null);
  }, 120_000);

  it('adds and deletes a host with its PTR record', async () => {
    expect(
      (await call('ddns.add_host', 'example.test', 'web', '60', '192.0.2.35', port(), md5())).local,
    ).toBe(true);
    expect(bind.lookup('web.example.test', 'A')).toEqual(['192.0.2.35']);
    expect(bind.lookup('35.2.0.192.in-addr.arpa', 'PTR')).toEqual(['web.example.test.']);
    expect((await call('ddns.delete_host', 'example.test', 'web', port(), md5())).local).toBe(true);
    expect(bind.lookup('web.example.test', 'A')).toEqual([]);
    expect(bind.lookup('35.2.0.192.in-addr.arpa', 'PTR')).toEqual([]);
    expect((await call('ddns.delete_host', 'example.test', 'web', port(), md5())).local).toBe(null);
  }, 120_000);

  it('times out as dnspython does when no server answers', async () => {
    const r = await call(
      'ddns.update',
      'example.test',
      'h9',
      '60',
      'A',
      '192.0.2.9',
      'nameserver=127.0.0.2',
      'timeout=1',
      port(),
    );
    expect(r.code).toBe(1);
    expect(r.output).toContain('Timeout: The DNS operation timed out.');
  }, 120_000);

  it('keeps a record present or absent with the states, and only says so under test=True', async () => {
    const args = ['name=s1', 'zone=example.test', 'ttl=60', 'data=192.0.2.50', port(), md5()];
    expect(await state('ddns.present', ...args, 'test=True')).toEqual({
      result: null,
      changes: {},
      comment: 'A record "s1" will be updated',
    });
    expect(bind.lookup('s1.example.test', 'A')).toEqual([]);
    expect(await state('ddns.present', ...args)).toEqual({
      result: true,
      changes: { name: 's1', zone: 'example.test', ttl: 60, rdtype: 'A', data: '192.0.2.50' },
      comment: 'Updated A record for "s1"',
    });
    expect(bind.lookup('s1.example.test', 'A')).toEqual(['192.0.2.50']);
    expect(await state('ddns.present', ...args)).toEqual({
      result: true,
      changes: {},
      comment: 'A record "s1" already present with ttl of 60',
    });
    expect(
      await state('ddns.present', 'name=s1', 'zone=example.test', 'ttl=60', 'data=192.0.2.51', port()),
    ).toEqual({
      result: false,
      changes: {},
      comment: 'Failed to create or update A record for "s1"',
    });
    expect(await state('ddns.absent', 'name=s1', 'zone=example.test', port(), md5(), 'test=True')).toEqual({
      result: null,
      changes: {},
      comment: 'None record "s1" will be deleted',
    });
    expect(await state('ddns.absent', 'name=s1', 'zone=example.test', port(), md5())).toEqual({
      result: true,
      changes: { Deleted: { name: 's1', zone: 'example.test' } },
      comment: 'Deleted DNS record(s)',
    });
    expect(bind.lookup('s1.example.test', 'A')).toEqual([]);
    expect(await state('ddns.absent', 'name=s1', 'zone=example.test', port(), md5())).toEqual({
      result: true,
      changes: {},
      comment: 'No matching DNS record(s) present',
    });
  }, 120_000);

  it('takes the key from ddns.keyfile/ddns.keyalgorithm config when the call names none', async () => {
    appendFileSync(
      join(call.etc, 'minion'),
      `ddns.keyfile: ${bind.keyfiles.sha256}\nddns.keyalgorithm: hmac-sha256\n`,
    );
    expect((await call('ddns.update', 'example.test', 'cfg', '60', 'A', '192.0.2.60', port())).local).toBe(
      true,
    );
    expect(bind.lookup('cfg.example.test', 'A')).toEqual(['192.0.2.60']);
  }, 120_000);
});
