import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cleanKey,
  loadOrCreateKeyPair,
  publicPemFromPrivate,
  readKeyString,
  readKeyStringSync,
  writeKeyPair,
  writeKeyString,
  writeKeyStringSync,
} from './keys.js';
import { generateRsaKeyPair } from './rsa.js';

const mode = (path: string): number => statSync(path).mode & 0o777;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsalt-keys-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('cleanKey', () => {
  it('strips surrounding whitespace and normalises line endings like Salt clean_key', () => {
    expect(cleanKey('\n  -----BEGIN PUBLIC KEY-----\r\nAAA\r\nBBB\r\n-----END PUBLIC KEY-----\r\n\n')).toBe(
      '-----BEGIN PUBLIC KEY-----\nAAA\nBBB\n-----END PUBLIC KEY-----',
    );
    expect(cleanKey('a\rb\nc\r\nd')).toBe('a\nb\nc\nd');
    expect(cleanKey('a\n\nb')).toBe('a\n\nb');
    expect(cleanKey('a\u2028b\x0bc')).toBe('a\nb\nc');
    expect(cleanKey('\u3000\x1fkey\xa0')).toBe('key');
    expect(cleanKey('')).toBe('');
  });

  it('is idempotent and maps a PEM file to its trimmed form', () => {
    const { publicPem } = generateRsaKeyPair(1024);
    expect(cleanKey(publicPem)).toBe(publicPem.trimEnd());
    expect(cleanKey(cleanKey(publicPem))).toBe(cleanKey(publicPem));
  });
});

describe('publicPemFromPrivate', () => {
  it('gives the SPKI PEM of the pair', () => {
    const pair = generateRsaKeyPair(1024);
    expect(publicPemFromPrivate(pair.privatePem)).toBe(pair.publicPem);
  });
});

describe('key pair files', () => {
  it('writeKeyPair writes .pem 0400 and .pub 0644 and leaves no temp files', async () => {
    const pair = generateRsaKeyPair(1024);
    await writeKeyPair(dir, 'minion', pair);
    expect(readFileSync(join(dir, 'minion.pem'), 'utf8')).toBe(pair.privatePem);
    expect(readFileSync(join(dir, 'minion.pub'), 'utf8')).toBe(pair.publicPem);
    expect(mode(join(dir, 'minion.pem'))).toBe(0o400);
    expect(mode(join(dir, 'minion.pub'))).toBe(0o644);
    expect(readdirSync(dir).sort()).toEqual(['minion.pem', 'minion.pub']);
    // a second write replaces the read-only file
    const next = generateRsaKeyPair(1024);
    await writeKeyPair(dir, 'minion', next);
    expect(readFileSync(join(dir, 'minion.pem'), 'utf8')).toBe(next.privatePem);
  });

  it('loadOrCreateKeyPair creates once, then loads', async () => {
    const sub = join(dir, 'pki', 'master');
    const first = await loadOrCreateKeyPair(sub, 'master', 1024);
    expect(first.created).toBe(true);
    expect(mode(join(sub, 'master.pem'))).toBe(0o400);
    expect(publicPemFromPrivate(first.privatePem)).toBe(first.publicPem);
    const second = await loadOrCreateKeyPair(sub, 'master', 1024);
    expect(second).toEqual({ ...first, created: false });
  });

  it('re-derives a missing .pub', async () => {
    const pair = generateRsaKeyPair(1024);
    writeFileSync(join(dir, 'minion.pem'), pair.privatePem, { mode: 0o400 });
    const loaded = await loadOrCreateKeyPair(dir, 'minion');
    expect(loaded.created).toBe(false);
    expect(loaded.publicPem).toBe(pair.publicPem);
    expect(readFileSync(join(dir, 'minion.pub'), 'utf8')).toBe(pair.publicPem);
  });

  it('refuses a corrupt .pem with SALT_ERR_CRYPT_KEY', async () => {
    writeFileSync(join(dir, 'minion.pem'), 'garbage');
    await expect(loadOrCreateKeyPair(dir, 'minion')).rejects.toMatchObject({ code: 'SALT_ERR_CRYPT_KEY' });
  });
});

describe('key strings on disk', () => {
  it('writes 0600 atomically and reads back', async () => {
    const path = join(dir, '.root_key');
    expect(await readKeyString(path)).toBeUndefined();
    await writeKeyString(path, 'k1');
    expect(mode(path)).toBe(0o600);
    expect(await readKeyString(path)).toBe('k1');
    await writeKeyString(path, 'k2');
    expect(readKeyStringSync(path)).toBe('k2');
    writeKeyStringSync(path, 'k3');
    expect(mode(path)).toBe(0o600);
    expect(await readKeyString(path)).toBe('k3');
    expect(readdirSync(dir)).toEqual(['.root_key']);
  });

  it('reports a missing directory and leaves nothing behind', async () => {
    const path = join(dir, 'sessions', 'vm1');
    await expect(writeKeyString(path, 'k')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => writeKeyStringSync(path, 'k')).toThrow();
    expect(existsSync(join(dir, 'sessions'))).toBe(false);
    expect(readKeyStringSync(path)).toBeUndefined();
  });
});
