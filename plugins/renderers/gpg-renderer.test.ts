// The gpg renderer against the real gpg program with a throwaway key made in a temp GNUPGHOME.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gpgKey, killGpgAgent } from '../../test/support/gpg-key.js';
import { gpgKeyDir } from './gpg-renderer.js';
import { renderPipeline } from './pipeline.js';
import { NO_SALT_FUNCTIONS } from './salt-functions.js';
import type { RenderContext } from './types.js';

let dir: string;
let keydir: string;
let cipher: string;
const ctx = (opts: Record<string, unknown>): RenderContext => ({
  grains: {},
  pillar: {},
  opts,
  salt: NO_SALT_FUNCTIONS,
  saltenv: 'base',
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-gpg-'));
  keydir = join(dir, 'gpgkeys');
  cipher = gpgKey(keydir, 't@example.invalid')('s3cr3t-password');
}, 60_000);
afterAll(async () => {
  killGpgAgent(keydir);
  await rm(dir, { recursive: true, force: true });
});

describe('gpg renderer', () => {
  it('decrypts PGP blocks at any depth with the keys in gpg_keydir (#!yaml|gpg)', async () => {
    const sls = `#!yaml|gpg\ndb:\n  password: |\n${cipher
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n')}\n  user: app\nlist:\n  - plain\n`;
    const out = await renderPipeline(sls, { path: 'secret.sls', context: ctx({ gpg_keydir: keydir }) });
    expect(out).toEqual({ db: { password: 's3cr3t-password', user: 'app' }, list: ['plain'] });
  });

  it('finds the keys in <config_dir>/gpgkeys by default', async () => {
    expect(gpgKeyDir({ config_dir: dir })).toBe(keydir);
    expect(gpgKeyDir({ conf_file: join(dir, 'master') })).toBe(keydir);
    // a config the loader resolved keeps gpg_keydir, an option its kernel does not define, in extra
    expect(gpgKeyDir({ config_dir: '/elsewhere', extra: { gpg_keydir: keydir } })).toBe(keydir);
    const out = await renderPipeline(`#!yaml|gpg\nx: "${cipher.replace(/\n/g, '\\n')}"\n`, {
      path: 's.sls',
      context: ctx({ config_dir: dir }),
    });
    expect(out).toEqual({ x: 's3cr3t-password' });
  });

  it('leaves an undecryptable block as it is, or fails naming the file with gpg_decrypt_must_succeed', async () => {
    const empty = join(dir, 'empty');
    execFileSync('mkdir', ['-m', '700', empty]);
    const sls = `#!yaml|gpg\nx: "${cipher.replace(/\n/g, '\\n')}"\n`;
    const kept = (await renderPipeline(sls, { path: 's.sls', context: ctx({ gpg_keydir: empty }) })) as {
      x: string;
    };
    expect(kept.x).toContain('-----BEGIN PGP MESSAGE-----');
    await expect(
      renderPipeline(sls, {
        path: 's.sls',
        context: ctx({ gpg_keydir: empty, gpg_decrypt_must_succeed: true }),
      }),
    ).rejects.toMatchObject({
      code: 'SALT_ERR_RENDER_GPG',
      message: expect.stringMatching(/^s\.sls: could not decrypt/),
    });
  });
});
