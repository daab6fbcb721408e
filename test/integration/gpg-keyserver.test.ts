// gpg.search_keys, gpg.receive_keys and the gpg.present/gpg.absent states through a real
// masterless salt-call of tsalt, against a throwaway HKP keyserver on 127.0.0.1 that serves keys
// gpg makes here; gpg's own dirmngr does the fetching. The expectations are what Salt 3006.18's
// salt-call --local answered for the same calls on the same kind of server (/tmp/gpg21 harness).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HkpServer, startHkpServer } from '../support/hkp-server.js';
import { localCaller } from '../support/local-call.js';

const gpg = (home: string, args: string[]) =>
  execFileSync('gpg', ['--homedir', home, '--batch', ...args], {
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
const fprOf = (home: string, who: string) =>
  (/^fpr:+([0-9A-F]{40}):/m.exec(gpg(home, ['--with-colons', '--list-keys', who])) ?? [])[1] as string;
const today = (epoch: number) => {
  const d = new Date(epoch * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
};

describe('gpg keyserver functions and states', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-gpgks-'));
  const call = localCaller(root, 'gpgks1');
  const source = join(root, 'source');
  // user=salt: <config_dir>/gpgkeys, which trust_key (it has no gnupghome) uses too
  const saltHome = join(call.etc, 'gpgkeys');
  const other = join(root, 'other');
  const homes = [source, saltHome, other];
  let ks: HkpServer;
  let alice = '';
  let bob = '';
  let carol = '';
  let created = '';
  let expires = '';

  beforeAll(async () => {
    for (const h of homes) mkdirSync(h, { mode: 0o700 });
    const mk = (uid: string, expire: string) =>
      gpg(source, ['--passphrase', '', '--quick-gen-key', uid, 'rsa2048', 'sign', expire]);
    mk('Alice KS <alice@ks.test>', 'never');
    mk('Bob KS <bob@ks.test>', 'never');
    mk('Carol KS <carol@ks.test>', '2y');
    alice = fprOf(source, 'alice@ks.test');
    bob = fprOf(source, 'bob@ks.test');
    carol = fprOf(source, 'carol@ks.test');
    const pub =
      gpg(source, ['--with-colons', '--fixed-list-mode', '--list-keys', carol]).split('\n')[1] ?? '';
    const f = pub.split(':');
    created = today(Number(f[5]));
    expires = today(Number(f[6]));
    ks = await startHkpServer(source);
  }, 120_000);
  afterAll(async () => {
    await ks?.close();
    for (const h of homes) if (existsSync(h)) execFileSync('gpgconf', ['--homedir', h, '--kill', 'all']);
    rmSync(root, { recursive: true, force: true });
  });

  it('search_keys lists what the keyserver answers, hex text asked as 0x...', async () => {
    const all = await call('gpg.search_keys', 'ks.test', `keyserver=${ks.url}`, 'user=salt');
    expect(all.local).toEqual([
      { keyid: alice, uids: ['Alice%20KS%20%3Calice%40ks.test%3E'], created, keyLength: '2048' },
      { keyid: bob, uids: ['Bob%20KS%20%3Cbob%40ks.test%3E'], created, keyLength: '2048' },
      { keyid: carol, uids: ['Carol%20KS%20%3Ccarol%40ks.test%3E'], expires, created, keyLength: '2048' },
    ]);
    const byId = await call('gpg.search_keys', ` ${carol.slice(24)} `, ks.url, 'salt');
    expect(byId.local).toEqual([all.local && (all.local as unknown[])[2]]);
    expect(ks.searches).toContain(`0x${carol.slice(24)}`);
    expect(
      (await call('gpg.search_keys', 'nobody@x.test', `keyserver=${ks.url}`, 'user=salt')).local,
    ).toEqual([]);
  }, 240_000);

  it('receive_keys adds keys, says which it had and which it could not get', async () => {
    const two = await call('gpg.receive_keys', ks.url, `${alice},${bob}`, 'user=salt');
    // gpg reports the keys in the order it imports them
    const { message, ...rest } = two.local as { message: string[] };
    expect(rest).toEqual({ res: true, changes: {} });
    expect(message.sort()).toEqual([`Key ${alice} added to keychain`, `Key ${bob} added to keychain`].sort());
    const again = await call('gpg.receive_keys', ks.url, alice.slice(24), 'user=salt');
    expect(again.local).toEqual({
      res: true,
      changes: {},
      message: [`Key ${alice} already exists in keychain`],
    });
    const none = await call('gpg.receive_keys', ks.url, 'DEADBEEFDEADBEEF', 'user=salt');
    expect(none.local).toEqual({ res: true, changes: {}, message: ['Unable to add key to keychain'] });
    const home = await call(
      'gpg.receive_keys',
      `keyserver=${ks.url}`,
      `keys=["${carol}"]`,
      `gnupghome=${other}`,
    );
    expect(home.local).toEqual({ res: true, changes: {}, message: [`Key ${carol} added to keychain`] });
    expect(fprOf(other, carol)).toBe(carol);
    const listed = (await call('gpg.list_keys', 'user=salt')).local as Array<{ fingerprint: string }>;
    expect(listed.map((k) => k.fingerprint).sort()).toEqual([alice, bob].sort());
  }, 240_000);

  it('gpg.present fetches a missing key, leaves a present one, sets trust', async () => {
    const st = async (...args: string[]) => {
      const r = await call('state.single', ...args);
      return Object.values(
        r.local as Record<string, { result: unknown; comment: string; changes: unknown }>,
      )[0];
    };
    const id = carol.slice(24);
    const added = await st('gpg.present', id, `keyserver=${ks.url}`, 'user=salt', 'trust=marginally');
    expect(added).toMatchObject({
      result: true,
      changes: {},
      comment: `Adding ${id} to GPG keychain\nSet trust level for ${id} to marginally`,
    });
    // as in Salt, the key's validity (Unknown here) is what is compared with the wanted trust
    // (whose word for marginally, 'Marginally', no listing shows): it is set again every time
    const same = await st('gpg.present', id, `keyserver=${ks.url}`, 'user=salt', 'trust=marginally');
    expect(same?.comment).toBe(
      `Set trust level for ${id} to marginally\nGPG Public Key ${id} already in keychain `,
    );
    const unknown = await st('gpg.present', id, `keyserver=${ks.url}`, 'user=salt', 'trust=unknown');
    expect(unknown?.comment).toBe(
      `GPG Public Key ${id} already in correct trust state\nGPG Public Key ${id} already in keychain `,
    );
    const bad = await st('gpg.present', id, `keyserver=${ks.url}`, 'user=salt', 'trust=sortof');
    expect(bad?.comment).toBe(`Invalid trust level sortof\nGPG Public Key ${id} already in keychain `);
    // a full fingerprint never matches the listed key ids: it is fetched again
    const byFpr = await st('gpg.present', carol, `keyserver=${ks.url}`, 'user=salt');
    expect(byFpr?.comment).toBe(`Adding ${carol} to GPG keychain`);
    const trust = (await call('gpg.get_key', `keyid=${id}`, 'user=salt')).local as { ownerTrust: string };
    expect(trust.ownerTrust).toBe('Marginally Trusted');
  }, 300_000);

  it('search_keys answers an empty list when the keyserver is not there', async () => {
    // last: dirmngr then takes 127.0.0.1 for a dead host in this keyring, whatever the port
    const r = await call('gpg.search_keys', 'alice', 'keyserver=hkp://127.0.0.1:9', 'user=salt');
    expect(r.local).toEqual([]);
  }, 120_000);

  it('gpg.absent answers for keys the minion user does not have', async () => {
    // as Salt's, absent lists the minion user's own keychain (root's here): leave none behind
    const rootHome = join(homedir(), '.gnupg');
    const hadRootHome = existsSync(rootHome);
    const r = await call(
      'state.single',
      'gpg.absent',
      'x',
      'keys=["AAAAAAAAAAAAAAAA", "BBBBBBBBBBBBBBBB"]',
      'user=salt',
    );
    const ret = Object.values(r.local as Record<string, { result: unknown; comment: string }>)[0];
    if (!hadRootHome) {
      execFileSync('gpgconf', ['--homedir', rootHome, '--kill', 'all']);
      rmSync(rootHome, { recursive: true, force: true });
    }
    expect(ret).toMatchObject({
      result: true,
      comment: 'x not found in GPG keychain\nx not found in GPG keychain',
    });
  }, 120_000);
});
