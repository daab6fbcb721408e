import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExecContext } from '../kernel/index.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import nacl from './nacl.js';

const SK = '0bEtqylDHRfD6TgLJYLUk/bS6Vc4YP4r2fRHk8blT0s=';
const PK = 'mPggpYuiyVv8lyDr7KQl7MBVk31RunUtsJm1yrsCGig=';
const SK2 = '5ziaeGQNaN1K5nzx9B+8ifbyWaU7EtLuuDzzz4teckY=';
const dir = mkdtempSync(join(tmpdir(), 'nacl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pki = join(dir, 'pki');
mkdirSync(join(pki, 'master'), { recursive: true });
writeFileSync(join(pki, 'master/nacl'), `${SK}\n`);
writeFileSync(join(pki, 'master/nacl.pub'), `${PK}\n`);

/** A minion whose `nacl.config` option is `config` (a loaded config keeps it in `extra`). */
function ctx(config: Record<string, unknown> = {}): ExecContext {
  return fakeCtx({ opts: { pki_dir: pki, extra: { 'nacl.config': config } } });
}
const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const call = async (fun: string, arg: unknown[] = [], c = ctx()) => (await invoke(nacl, fun, arg, c)).value;
const str = (v: unknown) => (Buffer.isBuffer(v) ? v.toString('utf8') : v);

// The expected values and messages are what Salt 3006.18's nacl module (PyNaCl 1.5) gave.
describe('nacl', () => {
  it('decrypts what PyNaCl encrypted, with keys from <pki_dir>/master, sk=, key= or nacl.config', async () => {
    const sealed = 'sjX5qjTB1h3p61KlBVHHVsVXYTkjIbvI/1NYJm13OWEzvujI/zTNhrdPTSPeRWK/FrWux4M=';
    expect(str(await call('dec', [sealed]))).toBe('hello');
    expect(str(await call('sealedbox_decrypt', [sealed, kw({ sk: SK })]))).toBe('hello');
    const secret = '5YlbgWNL4x2fTLncmcJG9h2A9rxe28nhC/SoXM0qtI8frb4F+o1S7Y+tlwKNnYnFZBw=';
    expect(str(await call('secretbox_decrypt', [secret, kw({ sk: SK2 })]))).toBe('pässwörd');
    expect(str(await call('dec', [secret, kw({ key: SK2 })]))).toBe('pässwörd');
    expect(str(await call('dec', [secret], ctx({ box_type: 'secretbox', sk: SK2 })))).toBe('pässwörd');
    expect(await call('sealedbox_decrypt', [null])).toBe(null);
  });

  it('encrypts to base64 bytes that decrypt again, sealed by default, secret on request', async () => {
    const sealed = await call('enc', ['s3cr3t']);
    expect(Buffer.isBuffer(sealed)).toBe(true);
    expect(Buffer.from(String(sealed), 'base64').length).toBe(32 + 16 + 6);
    expect(str(await call('dec', [String(sealed)]))).toBe('s3cr3t');
    const boxed = await call('enc', ['s3cr3t', kw({ box_type: 'secretbox' })]);
    expect(Buffer.from(String(boxed), 'base64').length).toBe(24 + 16 + 6);
    expect(str(await call('secretbox_decrypt', [String(boxed)]))).toBe('s3cr3t');
    expect(str(await call('dec', [String(boxed), kw({ keyfile: join(pki, 'master/nacl') })]))).toBe('s3cr3t');
  });

  it("fails with PyNaCl's and Salt's messages", async () => {
    await expect(call('dec', ['AAAA'])).rejects.toThrow('Input cyphertext must be at least 48 long');
    await expect(call('dec', ['abc'])).rejects.toThrow('Incorrect padding');
    await expect(call('dec', ['A'.repeat(64)])).rejects.toThrow(
      'An error occurred trying to decrypt the message',
    );
    await expect(call('dec', ['A'.repeat(65)])).rejects.toThrow(
      'Invalid base64-encoded string: number of data characters (65) cannot be 1 more than a multiple of 4',
    );
    await expect(call('dec', ['A'.repeat(66)])).rejects.toThrow('Incorrect padding');
    await expect(call('secretbox_decrypt', ['YWJj'])).rejects.toThrow(
      'The nonce must be exactly 24 bytes long',
    );
    await expect(call('secretbox_decrypt', ['A'.repeat(64)])).rejects.toThrow(
      'Decryption failed. Ciphertext failed verification',
    );
    await expect(call('sealedbox_encrypt', ['x', kw({ pk: 'c2hvcnQ=' })])).rejects.toThrow(
      'The public key must be exactly 32 bytes long',
    );
    await expect(call('sealedbox_decrypt', ['x', kw({ sk: 'c2hvcnQ=' })])).rejects.toThrow(
      'PrivateKey must be created from a 32 bytes long raw secret key',
    );
    await expect(call('enc', ['x', kw({ key: 'c2hvcnQ=' })])).rejects.toThrow(
      'The key must be exactly 32 bytes long',
    );
    await expect(call('dec', ['x', kw({ sk_file: join(dir, 'nope') })])).rejects.toThrow(
      'no key or sk_file found',
    );
    await expect(call('enc', ['x', kw({ pk_file: join(dir, 'nope') })])).rejects.toThrow(
      'no pubkey or pk_file found',
    );
    await expect(call('enc', [12])).rejects.toThrow("expected str, bytes, or bytearray not <class 'int'>");
  });

  it('generates key pairs, to files as Salt writes them', async () => {
    const pair = (await call('keygen')) as { sk: Buffer; pk: Buffer };
    expect(Buffer.from(pair.sk.toString(), 'base64').length).toBe(32);
    expect(
      str(
        await call('dec', [
          String(await call('enc', ['k', kw({ pk: String(pair.pk) })])),
          kw({ sk: String(pair.sk) }),
        ]),
      ),
    ).toBe('k');
    const k1 = join(dir, 'k1');
    expect(await call('keygen', [k1])).toBe(`saved sk_file:${k1}  pk_file: ${k1}.pub`);
    expect(statSync(k1).mode & 0o7777).toBe(0o3000);
    expect(readFileSync(`${k1}.pub`, 'utf8')).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    await expect(call('keygen', [k1])).rejects.toThrow(`sk_file:${k1} and pk_file:${k1}.pub already exist.`);
    const only = join(dir, 'only');
    writeFileSync(only, SK);
    expect(await call('keygen', [kw({ keyfile: only })])).toBe(`saved pk_file: ${only}.pub`);
    expect(readFileSync(`${only}.pub`, 'utf8')).toBe(PK);
  });

  it('encrypts and decrypts files, writing out only to a new file', async () => {
    const plain = join(dir, 'plain.txt');
    writeFileSync(plain, 'line one\nline two\n');
    const enc = join(dir, 'plain.nacl');
    expect(await call('enc_file', [plain, enc])).toBe(`Wrote: ${enc}`);
    await expect(call('enc_file', [plain, enc])).rejects.toThrow(`file:${enc} already exist.`);
    expect(str(await call('dec_file', [enc]))).toBe('line one\nline two\n');
    const out = join(dir, 'plain.out');
    expect(await call('dec_file', [enc, out])).toBe(`Wrote: ${out}`);
    expect(readFileSync(out, 'utf8')).toBe('line one\nline two\n');
  });
});
