// Salt's gpg execution module through a real masterless salt-call of tsalt, on throwaway
// GnuPG homes with keys made here by gpg itself: listings, import/export, trust, sign/verify,
// encrypt/decrypt (with the pillar passphrase), create and delete. The expectations are what
// Salt 3006.18's salt-call --local answered for the same calls (/tmp/gpg17 harness).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';

const PASS = 'test pass phrase 17';
const gpg = (home: string, args: string[], input?: string) =>
  execFileSync('gpg', ['--homedir', home, '--batch', ...args], {
    input,
    stdio: ['pipe', 'pipe', 'ignore'],
  }).toString();
const fprOf = (home: string, who: string) =>
  (/^fpr:+([0-9A-F]{40}):/m.exec(gpg(home, ['--with-colons', '--list-keys', who])) ?? [])[1] as string;

describe('gpg execution module', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-gpg-'));
  const call = localCaller(root, 'gpg1');
  // user=salt makes every function (trust_key too, which has no gnupghome) use <config_dir>/gpgkeys
  const home = join(call.etc, 'gpgkeys');
  const other = join(root, 'other');
  const gcall = (fn: string, ...args: string[]) => call(`gpg.${fn}`, ...args, 'user=salt');
  let alice = '';
  let bob = '';

  beforeAll(() => {
    mkdirSync(join(root, 'pillar'), { recursive: true });
    writeFileSync(join(root, 'pillar/top.sls'), "base:\n  '*':\n    - gpg\n");
    writeFileSync(join(root, 'pillar/gpg.sls'), `gpg_passphrase: '${PASS}'\n`);
    for (const h of [home, other]) mkdirSync(h, { mode: 0o700 });
    gpg(home, [
      '--passphrase',
      '',
      '--quick-gen-key',
      'Alice T <alice@gpg.test>',
      'future-default',
      'default',
      'never',
    ]);
    gpg(home, [
      '--pinentry-mode',
      'loopback',
      '--passphrase',
      PASS,
      '--quick-gen-key',
      'Bob T <bob@gpg.test>',
      'future-default',
    ]);
    gpg(other, [
      '--passphrase',
      '',
      '--quick-gen-key',
      'Carol T <carol@gpg.test>',
      'future-default',
      'default',
      'never',
    ]);
    writeFileSync(join(root, 'carol.asc'), gpg(other, ['--armor', '--export', 'carol@gpg.test']));
    // a fresh agent, so no passphrase is cached from the key's creation
    execFileSync('gpgconf', ['--homedir', home, '--kill', 'gpg-agent'], { stdio: 'ignore' });
    alice = fprOf(home, 'alice@gpg.test');
    bob = fprOf(home, 'bob@gpg.test');
  }, 60_000);
  afterAll(() => {
    for (const h of [home, other]) {
      try {
        execFileSync('gpgconf', ['--homedir', h, '--kill', 'gpg-agent'], { stdio: 'ignore' });
      } catch {}
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('lists and finds keys as Salt shapes them', async () => {
    const keys = (await gcall('list_keys')).local as Array<Record<string, unknown>>;
    expect(keys.map((k) => k.fingerprint)).toEqual([alice, bob]);
    // Salt's key order; no `expires` for a key that never expires
    expect(Object.keys(keys[0] ?? {}).join(' ')).toBe(
      'keyid fingerprint uids created keyLength ownerTrust trust',
    );
    expect(keys[0]).toMatchObject({
      keyid: alice.slice(24),
      uids: ['Alice T <alice@gpg.test>'],
      trust: 'Ultimately Trusted',
    });
    expect(keys[1]?.expires).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect((await gcall('get_key', `keyid=${alice.slice(32)}`)).local).toMatchObject({ fingerprint: alice });
    expect((await gcall('get_secret_key', `fingerprint=${bob}`)).local).toMatchObject({
      keyid: bob.slice(24),
    });
    expect((await gcall('get_key', 'keyid=DEADBEEF')).local).toBe(false);
  });

  it('imports, exports and sets the owner trust of a key', async () => {
    const carol = join(root, 'carol.asc');
    expect((await gcall('import_key', `filename=${carol}`)).local).toEqual({
      res: true,
      message: 'Successfully imported key(s).',
    });
    expect((await gcall('import_key', `filename=${carol}`)).local).toEqual({
      res: true,
      message: 'Key(s) already exist in keychain.',
    });
    const missing = await gcall('import_key', `filename=${join(root, 'nope.asc')}`);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('filename does not exist.');
    const bare = (await gcall('export_key', 'keyids=carol@gpg.test', 'bare=True')).local as string;
    expect(bare).toMatch(
      /^-----BEGIN PGP PUBLIC KEY BLOCK-----\n[\s\S]*-----END PGP PUBLIC KEY BLOCK-----\n$/,
    );
    expect((await gcall('export_key', 'keyids=nobody@gpg.test')).local).toEqual({ res: false });
    const carolFpr = fprOf(other, 'carol@gpg.test');
    expect((await gcall('trust_key', 'keyid=carol@gpg.test', 'trust_level=fully')).local).toEqual({
      res: false,
      message: 'KeyID carol@gpg.test not in GPG keychain',
    });
    expect(
      (await gcall('trust_key', `fingerprint=${carolFpr}`, 'trust_level=marginally')).local,
    ).toMatchObject({ res: true });
    expect((await gcall('get_key', `fingerprint=${carolFpr}`)).local).toMatchObject({
      ownerTrust: 'Marginally Trusted',
    });
    expect((await gcall('trust_key', `keyid=${carolFpr.slice(24)}`, 'trust_level=bogus')).local).toBe(
      'ERROR: Valid trust levels - expired,unknown,not_trusted,marginally,fully,ultimately',
    );
  });

  it('signs and verifies, encrypts and decrypts, the passphrase from pillar only', async () => {
    const signed = (await gcall('sign', `keyid=${alice}`, 'text=hello there')).local as string;
    expect(signed).toMatch(
      /^-----BEGIN PGP SIGNED MESSAGE-----\n[\s\S]*\nhello there\n-----BEGIN PGP SIGNATURE-----/,
    );
    writeFileSync(join(root, 'signed.asc'), signed);
    expect((await gcall('verify', `filename=${join(root, 'signed.asc')}`)).local).toEqual({
      res: true,
      username: 'Alice T <alice@gpg.test>',
      key_id: alice.slice(24),
      trust_level: 'Ultimate',
      message: 'The signature is verified.',
    });
    expect((await gcall('verify', 'text=not signed')).local).toEqual({
      res: false,
      message: 'The signature could not be verified.',
    });

    const enc = join(root, 'msg.asc');
    expect(
      (await gcall('encrypt', 'text=for bob', 'recipients=bob@gpg.test', `output=${enc}`)).local,
    ).toEqual({
      res: true,
      comment: `Encrypted data has been written to ${enc}`,
    });
    expect(readFileSync(enc, 'utf8')).toMatch(/^-----BEGIN PGP MESSAGE-----/);
    // Bob's key has a passphrase: without use_passphrase gpg has no way to ask for it
    expect((await gcall('decrypt', `filename=${enc}`)).local).toEqual({
      res: false,
      comment: 'decryption failed.\nPlease check the salt-minion log.',
    });
    const dec = await call(
      'gpg.decrypt',
      `filename=${enc}`,
      'use_passphrase=True',
      'bare=True',
      'user=salt',
      '-l',
      'debug',
    );
    expect(dec.local).toBe('for bob');
    expect(dec.output).not.toContain(PASS);
    expect((await gcall('encrypt', 'text=x', 'recipients=nobody@gpg.test')).local).toEqual({
      res: false,
      comment: 'invalid recipient.\nPlease check the salt-minion log.',
    });
  });

  it('creates a key with the pillar passphrase and deletes keys', async () => {
    const rsa = (
      await gcall('create_key', 'name_real=Dave', 'name_email=dave@gpg.test', 'use_passphrase=True')
    ).local as Record<string, string>;
    expect(rsa).toMatchObject({ res: true, message: 'GPG key pair successfully generated.' });
    expect(rsa.fingerprint).toMatch(/^[0-9A-F]{40}$/);
    expect((await gcall('get_secret_key', `fingerprint=${rsa.fingerprint}`)).local).toMatchObject({
      uids: ['Dave (Generated by SaltStack) <dave@gpg.test>'],
      keyLength: '1024',
    });

    expect((await gcall('delete_key')).local).toEqual({
      res: false,
      message: 'Required argument, fingerprint or keyid',
    });
    expect((await gcall('delete_key', `keyid=${bob.slice(24)}`)).local).toEqual({
      res: false,
      message: 'Secret key exists, delete first or pass delete_secret=True.',
    });
    expect((await gcall('delete_key', `keyid=${bob.slice(24)}`, 'delete_secret=True')).local).toEqual({
      res: true,
      message: `Secret key for ${bob} deleted\nPublic key for ${bob} deleted`,
    });
    expect((await gcall('get_key', `fingerprint=${bob}`)).local).toBe(false);
  });
});
