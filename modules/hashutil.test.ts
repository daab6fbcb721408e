import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import hashutil from './hashutil.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const call = async (fun: string, arg: unknown[] = []) => (await invoke(hashutil, fun, arg, fakeCtx())).value;
const dir = mkdtempSync(join(tmpdir(), 'hashutil-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The expected values are what salt-call --local gave for the same calls (Salt 3006.18).
describe('hashutil', () => {
  it('digests strings and files with md5, sha256 and sha512 only', async () => {
    expect(await call('digest', ['foo'])).toBe('acbd18db4cc2f85cedef654fccc4a4d8');
    expect(await call('digest', ['foo', 'sha256'])).toBe(
      '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae',
    );
    await expect(call('digest', ['foo', 'sha1'])).rejects.toThrow("Hash func 'sha1' is not supported.");
    const f = join(dir, 'f');
    writeFileSync(f, 'foo');
    expect(await call('digest_file', [f])).toBe('acbd18db4cc2f85cedef654fccc4a4d8');
    await expect(call('digest_file', [join(dir, 'nope')])).rejects.toThrow(/File path '.*nope' not found\./);
  });

  it('base64 on one line, or in lines of 76 with a newline each', async () => {
    expect(await call('base64_b64encode', ['foo'])).toBe('Zm9v');
    expect(await call('base64_encodestring', ['foo'])).toBe('Zm9v\n');
    const long = await call('base64_encodestring', ['x'.repeat(100)]);
    expect(
      String(long)
        .split('\n')
        .map((l) => l.length),
    ).toEqual([76, 60, 0]);
    expect(await call('base64_b64decode', ['Zm9v'])).toBe('foo');
    expect(Buffer.isBuffer(await call('base64_b64decode', ['/w==']))).toBe(true);
    const out = join(dir, 'out');
    expect(await call('base64_decodefile', ['Zm9vCg==', out])).toBe(true);
    expect(readFileSync(out, 'utf8')).toBe('foo\n');
    expect(await call('base64_encodefile', [out])).toBe('Zm9vCg==\n');
  });

  it('computes and checks HMAC signatures', async () => {
    expect(await call('hmac_compute', ['foo', 'bar'])).toBe(
      '147933218aaabc0b8b10a2b3a5c34684c8d94341bcf10a4736dc7270f7741851',
    );
    expect(
      await call('hmac_signature', [
        'foo',
        'bar',
        kw({ challenge_hmac: 'FHkzIYqqvAuLEKKzpcNGhMjZQ0G88QpHNtxycPd0GFE=' }),
      ]),
    ).toBe(true);
    expect(await call('hmac_signature', ['foo', 'bar', 'xxx'])).toBe(false);
    expect(
      await call('github_signature', [
        'foo',
        'bar',
        kw({ challenge_hmac: 'sha1=85d155c55ed286a300bd1cf124de08d87e914f3a' }),
      ]),
    ).toBe(true);
    expect(await call('github_signature', ['foo', 'bar', kw({ challenge_hmac: 'sha1=00' })])).toBe(false);
  });
});
