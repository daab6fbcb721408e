import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pemFinger, pemFingerBytes, pemFingerOfFile, pemFingerOfString } from './fingerprint.js';

const PEM = '-----BEGIN PUBLIC KEY-----\nAAAA\nBBBB\n-----END PUBLIC KEY-----\n';

const pairs = (hex: string): string => hex.match(/../g)?.join(':') ?? '';

describe('pemFinger', () => {
  it('hashes the body lines with their newlines', () => {
    expect(pemFingerBytes(PEM).toString()).toBe('AAAA\nBBBB\n');
    expect(pemFinger(PEM)).toBe(pairs(createHash('sha256').update('AAAA\nBBBB\n').digest('hex')));
    expect(pemFinger(PEM, 'md5')).toBe(pairs(createHash('md5').update('AAAA\nBBBB\n').digest('hex')));
  });

  it('ignores blank lines, surrounding whitespace lines and \\r\\n endings', () => {
    const messy = '\n  \n-----BEGIN PUBLIC KEY-----\r\nAAAA\r\n\r\nBBBB\r\n-----END PUBLIC KEY-----\r\n\n';
    expect(pemFinger(messy)).toBe(pemFinger(PEM));
    expect(pemFinger(PEM.trimEnd())).toBe(pemFinger(PEM));
    expect(pemFinger(Buffer.from(PEM))).toBe(pemFinger(PEM));
  });

  it('renders 32 pairs for sha256 and 16 for md5', () => {
    expect(pemFinger(PEM).split(':')).toHaveLength(32);
    expect(pemFinger(PEM, 'md5').split(':')).toHaveLength(16);
    expect(pemFinger(PEM, 'sha512').split(':')).toHaveLength(64);
  });

  it('rejects unknown hash types', () => {
    expect(() => pemFinger(PEM, 'nope')).toThrow(expect.objectContaining({ code: 'SALT_ERR_CRYPT_ALGO' }));
  });

  it('accepts Python hashlib spellings', () => {
    expect(pemFinger(PEM, 'sha3_256')).toBe(
      pairs(createHash('sha3-256').update('AAAA\nBBBB\n').digest('hex')),
    );
  });
});

describe('pemFingerOfString', () => {
  it('hashes the string as it is', () => {
    expect(pemFingerOfString(PEM)).toBe(pairs(createHash('sha256').update(PEM).digest('hex')));
    expect(pemFingerOfString(PEM)).not.toBe(pemFinger(PEM));
  });
});

describe('pemFingerOfFile', () => {
  it('reads the file, and gives "" when it is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsalt-finger-'));
    try {
      writeFileSync(join(dir, 'm.pub'), PEM);
      expect(await pemFingerOfFile(join(dir, 'm.pub'))).toBe(pemFinger(PEM));
      expect(await pemFingerOfFile(join(dir, 'missing.pub'))).toBe('');
      expect(await pemFingerOfFile(dir)).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
