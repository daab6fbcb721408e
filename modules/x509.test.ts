import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import x509 from './x509.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const call = async (fun: string, arg: unknown[] = []) => (await invoke(x509, fun, arg, fakeCtx())).value;
const dir = mkdtempSync(join(tmpdir(), 'x509-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const openssl = (...args: string[]) => execFileSync('openssl', args, { encoding: 'utf8' });

// Expected values and messages are what salt-call --local gave for the same calls (Salt 3006.18).
describe('x509 keys', () => {
  it('creates keys OpenSSL reads, mode 0600 on disk, with the sizes Salt reports', async () => {
    const ec = join(dir, 'ec.key');
    expect(await call('create_private_key', [kw({ algo: 'ec', keysize: 384, path: ec })])).toBe(
      `PEM written to ${ec}`,
    );
    expect(statSync(ec).mode & 0o777).toBe(0o600);
    expect(readFileSync(ec, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(openssl('pkey', '-in', ec, '-noout', '-text')).toMatch(/384 bit/);
    expect(await call('get_private_key_size', [ec])).toBe(384);
    const ed = String(await call('create_private_key', [kw({ algo: 'ed25519' })]));
    expect(await call('get_private_key_size', [ed])).toBeNull();
    expect(await call('verify_private_key', [ec, await call('get_public_key', [ec])])).toBe(true);
    expect(await call('verify_private_key', [ed, ec])).toBe(false);
  });

  it('encrypts under a passphrase and says what is wrong when it is missing or wrong', async () => {
    const k = join(dir, 'enc.key');
    await call('create_private_key', [kw({ algo: 'rsa', passphrase: 's3cret', path: k })]);
    expect(readFileSync(k, 'utf8')).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----\n/);
    expect(readFileSync(k, 'utf8')).not.toContain('s3cret');
    expect(await call('get_private_key_size', [k, kw({ passphrase: 's3cret' })])).toBe(2048);
    await expect(call('get_private_key_size', [k])).rejects.toThrow(
      'Private key is encrypted. Please provide a password.',
    );
    await expect(call('get_private_key_size', [k, kw({ passphrase: 'no' })])).rejects.toThrow(
      'Bad decrypt - is the password correct?',
    );
  });

  it('refuses sizes and algorithms Salt refuses', async () => {
    await expect(call('create_private_key', [kw({ keysize: 1024 })])).rejects.toThrow(
      'RSA key size must be either 2048, 3072 or 4096 bits.',
    );
    await expect(call('create_private_key', [kw({ algo: 'dsa' })])).rejects.toThrow(
      'Invalid algorithm specified for generating private key: dsa. Valid: rsa, ec, ed25519, ed448',
    );
  });

  it('rewrites one-line PEM into lines of 64', async () => {
    const pem = String(
      await call('get_public_key', [String(await call('create_private_key', [kw({ algo: 'ec' })]))]),
    );
    const flat = pem.replace(/\n/g, '');
    expect(await call('get_pem_entry', [flat])).toBe(pem);
  });
});
