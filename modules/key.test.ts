import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pemFinger } from '../kernel/services.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import key from './key.js';

const pki = mkdtempSync(join(tmpdir(), 'tsalt-t-key-'));
afterAll(() => rmSync(pki, { recursive: true, force: true }));
const pub = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 })
    .publicKey.export({ type: 'spki', format: 'pem' })
    .toString();

describe('key', () => {
  it("fingerprints the minion's key and the cached master key; '' when missing", async () => {
    const ctx = fakeCtx({ opts: { pki_dir: pki, hash_type: 'sha256' } });
    const call = async (fun: string, arg: unknown[] = []) => (await invoke(key, fun, arg, ctx)).value;
    expect(await call('finger')).toBe('');
    const minion = pub();
    const master = pub();
    writeFileSync(join(pki, 'minion.pub'), minion);
    writeFileSync(join(pki, 'minion_master.pub'), master);
    expect(await call('finger')).toBe(pemFinger(minion, 'sha256'));
    expect(await call('finger', ['md5'])).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    expect(await call('finger_master')).toBe(pemFinger(master, 'sha256'));
    expect(await call('finger_master')).not.toBe(await call('finger'));
  });
});
