import { describe, expect, it } from 'vitest';
import {
  hexDigest,
  htdigestHash,
  md5Crypt,
  safeEqual,
  shaCrypt,
  verifyHtpasswdHash,
} from './password-hash.js';

// Vectors made with `openssl passwd` (OpenSSL 3).
describe('crypt schemes', () => {
  it('MD5-crypt and apr1', () => {
    expect(md5Crypt('saltdev', 'abcdefgh', '$apr1$')).toBe('$apr1$abcdefgh$7VRUfALhFkfHsMEYWHm5y1');
    expect(md5Crypt('saltdev', 'abcdefgh', '$1$')).toBe('$1$abcdefgh$bMLHE2k7xjXeCgG.fVvqG0');
  });
  it('SHA-crypt 256 and 512, with rounds and long passwords', () => {
    expect(shaCrypt('saltdev', 'abcdefgh', '5')).toBe(
      '$5$abcdefgh$y6xH2KW80qXL3i.j8MF63ydsLOjy4O6I83xkUO9RKU5',
    );
    expect(shaCrypt('saltdev', 'abcdefgh', '6')).toBe(
      '$6$abcdefgh$88OTLZrHXbtCHVBx.Rpk5bJdTmU33.7wMh03.uRWGXFVxJRq4vp2AJdMfpM9iikayWQ43bbl16BykbX2ecw0w0',
    );
    expect(shaCrypt('a much longer password than the hash length of 32 bytes ok', 'abcdefgh', '5')).toBe(
      '$5$abcdefgh$oUm1PCFJGn7r1qgAc64ej08mI/K/PtFOVoHwUT63002',
    );
    expect(shaCrypt('pw', 'saltsaltsaltsalt', '6')).toBe(
      '$6$saltsaltsaltsalt$.NRdXhGF7aIqFA0V3MOlnN0T8ecsXGrF.lehfnGm0TwFsNB8VWqs56ykUfVXu8cUgatHwmmkJO5fbOI6RoZAN0',
    );
    expect(shaCrypt('x', 'ab', '5', 1000)).toBe(
      '$5$rounds=1000$ab$lMxgB9r4O0h7N8Fc22csLTwDjQhj47dburbojE4s.sD',
    );
  });
});

describe('verifyHtpasswdHash', () => {
  it('verifies every supported scheme and rejects a wrong password', () => {
    const hashes = [
      '$apr1$abcdefgh$7VRUfALhFkfHsMEYWHm5y1',
      '$1$abcdefgh$bMLHE2k7xjXeCgG.fVvqG0',
      '$5$abcdefgh$y6xH2KW80qXL3i.j8MF63ydsLOjy4O6I83xkUO9RKU5',
      '{SHA}6f63LxI55SXpZXCxAyT06FpcBGk=',
      'saltdev',
    ];
    for (const h of hashes) {
      expect(verifyHtpasswdHash('saltdev', h).ok, h).toBe(true);
      expect(verifyHtpasswdHash('wrong', h).ok, h).toBe(false);
    }
  });
  it('says which schemes it cannot verify', () => {
    expect(verifyHtpasswdHash('x', '$2y$05$abcdefghijklmnopqrstuuJ7b2bq3cqm0Xh5c9bQoU0kX7bFzJu6')).toEqual({
      ok: false,
      unsupported: 'bcrypt',
    });
    expect(verifyHtpasswdHash('x', 'abJnggxhB/yWI')).toEqual({ ok: false, unsupported: 'des_crypt' });
  });
});

describe('digests', () => {
  it('hexDigest as hashutil.digest; unknown types are undefined', () => {
    expect(hexDigest('saltdev', 'sha256')).toBe(
      'c2ab060ce93047edd09a5e96030bd1fa716accb4a64dfb0023755c27469a105f',
    );
    expect(hexDigest('saltdev', 'SHA256')).toBe(hexDigest('saltdev', 'sha256'));
    expect(hexDigest('x', 'nosuchhash')).toBeUndefined();
  });
  it('htdigest and safeEqual', () => {
    expect(htdigestHash('u', 'r', 'p')).toMatch(/^[0-9a-f]{32}$/);
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
