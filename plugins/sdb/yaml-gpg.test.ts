import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitLogger } from '../../kernel/index.js';
import { gpgKey, killGpgAgent } from '../../test/support/gpg-key.js';
import { sdbGet } from './sdb.js';

const quiet: UnitLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

describe('the yaml sdb driver with gpg: true', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-sdb-gpg-'));
  const keydir = join(dir, 'gpgkeys');
  const file = join(dir, 'secrets.yaml');

  beforeAll(() => {
    const cipher = gpgKey(keydir, 'sdb@example.invalid')('gpg-protected-value');
    const block = cipher
      .trimEnd()
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n');
    writeFileSync(file, `db:\n  user: admin\n  pass: |\n${block}\n`);
  }, 60_000);
  afterAll(() => {
    killGpgAgent(keydir);
    rmSync(dir, { recursive: true, force: true });
  });

  const opts = (gpg: boolean) => ({
    gpg_keydir: keydir,
    secrets: { driver: 'yaml', files: [file], gpg },
  });

  it('decrypts PGP blocks with the keys in gpg_keydir', async () => {
    expect(await sdbGet('sdb://secrets/db:pass', { opts: opts(true), log: quiet })).toBe(
      'gpg-protected-value',
    );
    expect(await sdbGet('sdb://secrets/db:user', { opts: opts(true), log: quiet })).toBe('admin');
  });

  it('leaves the ciphertext as it is without the option', async () => {
    const raw = await sdbGet('sdb://secrets/db:pass', { opts: opts(false), log: quiet });
    expect(String(raw)).toContain('-----BEGIN PGP MESSAGE-----');
  });
});
