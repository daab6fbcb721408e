import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from './secret-box.js';

describe('secrets sealed under the cluster key', () => {
  const key = randomBytes(32);
  const plain = Buffer.from('{"key":"aes"}');

  it('open with the same key, cluster and name, and differ from the plain text', () => {
    const sealed = sealSecret(key, 'prod', 'aes', plain);
    expect(sealed.includes(plain)).toBe(false);
    expect(openSecret(key, 'prod', 'aes', sealed)).toEqual(plain);
    // a fresh nonce each time
    expect(sealSecret(key, 'prod', 'aes', plain).equals(sealed)).toBe(false);
  });

  it('do not open under another key, cluster or name, nor when altered or cut short', () => {
    const sealed = sealSecret(key, 'prod', 'session/m1', plain);
    expect(openSecret(randomBytes(32), 'prod', 'session/m1', sealed)).toBeUndefined();
    expect(openSecret(key, 'test', 'session/m1', sealed)).toBeUndefined();
    expect(openSecret(key, 'prod', 'session/m2', sealed)).toBeUndefined();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1]! ^= 1;
    expect(openSecret(key, 'prod', 'session/m1', altered)).toBeUndefined();
    expect(openSecret(key, 'prod', 'session/m1', sealed.subarray(0, 20))).toBeUndefined();
  });
});
