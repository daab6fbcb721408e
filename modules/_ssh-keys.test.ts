import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { which } from './_which.js';
import sshMod from './ssh.js';
import userMod from './user.js';

// host_keys, user_keys, key_is_encrypted on real key files that ssh-keygen makes.
describe.skipIf(!which('ssh-keygen'))('ssh key files', () => {
  let dir: string;
  const ctx = moduleCtx([sshMod, userMod]);
  const keygen = (file: string, ...opts: string[]) =>
    execFileSync('ssh-keygen', ['-q', '-C', 'c', '-f', join(dir, file), ...opts]);
  const text = (file: string) => readFileSync(join(dir, file), 'utf8').trim();

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tsalt-t-sshkeys-'));
    keygen('plain', '-t', 'ed25519', '-N', '');
    keygen('newenc', '-t', 'ed25519', '-N', 'secret-pw');
    keygen('pemenc', '-m', 'PEM', '-t', 'rsa', '-b', '1024', '-N', 'secret-pw');
    const hk = join(dir, 'hk');
    mkdirSync(join(hk, 'ssh_host_dir_key'), { recursive: true });
    copyFileSync(join(dir, 'plain'), join(hk, 'ssh_host_ed25519_key'));
    copyFileSync(join(dir, 'plain.pub'), join(hk, 'ssh_host_ed25519_key.pub'));
    copyFileSync(join(dir, 'plain.pub'), join(hk, 'ssh_host_ed25519_key-cert.pub'));
    writeFileSync(join(hk, 'ssh_host_key_key'), 'SSH PRIVATE KEY FILE FORMAT 1.1\n\u0001binary\n');
    writeFileSync(join(hk, 'other'), 'x\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('host_keys: private, public and cert files by type; private=False and certs=False leave them out', async () => {
    const hk = join(dir, 'hk');
    expect(await ctx.call('ssh.host_keys', [hk])).toEqual({
      ed25519: text('plain'),
      'ed25519.pub': text('plain.pub'),
      'ed25519-cert.pub': text('plain.pub'),
      key: 'SSH PRIVATE KEY FILE FORMAT 1.1',
      dir: '',
    });
    // keydir, private, certs
    expect(Object.keys((await ctx.call('ssh.host_keys', [hk, false])) as object).sort()).toEqual([
      'ed25519-cert.pub',
      'ed25519.pub',
    ]);
    expect(Object.keys((await ctx.call('ssh.host_keys', [hk, true, false])) as object).sort()).toEqual([
      'dir',
      'ed25519',
      'ed25519.pub',
      'key',
    ]);
    await expect(ctx.call('ssh.host_keys', [join(dir, 'none')])).rejects.toThrow(
      `[Errno 2] No such file or directory: '${join(dir, 'none')}'`,
    );
  });

  it('key_is_encrypted: only an ENCRYPTED header counts, as Salt reads it', async () => {
    expect(await ctx.call('ssh.key_is_encrypted', [join(dir, 'plain')])).toBe(false);
    expect(await ctx.call('ssh.key_is_encrypted', [join(dir, 'pemenc')])).toBe(true);
    // the OpenSSH format hides the cipher in base64: Salt answers False
    expect(await ctx.call('ssh.key_is_encrypted', [join(dir, 'newenc')])).toBe(false);
    await expect(ctx.call('ssh.key_is_encrypted', [join(dir, 'plain.pub')])).rejects.toThrow(
      `${join(dir, 'plain.pub')} is not a private key`,
    );
    await expect(ctx.call('ssh.key_is_encrypted', [join(dir, 'none')])).rejects.toThrow(
      `${join(dir, 'none')} does not exist`,
    );
    await expect(ctx.call('ssh.key_is_encrypted', [join(dir, 'hk')])).rejects.toThrow(
      `Error 21 encountered reading from ${join(dir, 'hk')}: Is a directory`,
    );
  });

  it('user_keys: absolute key files by basename, False skips a kind, users without a home are left out', async () => {
    // user, pubfile, prvfile
    expect(await ctx.call('ssh.user_keys', ['root', join(dir, 'plain.pub'), false])).toEqual({
      root: { 'plain.pub': text('plain.pub') },
    });
    expect(
      await ctx.call('ssh.user_keys', [
        ['root', 'tsalt-no-such-user'],
        join(dir, 'plain.pub'),
        join(dir, 'plain'),
      ]),
    ).toEqual({ root: { 'plain.pub': text('plain.pub'), plain: text('plain') } });
    expect(await ctx.call('ssh.user_keys', ['root', 'tsalt-none.pub', false])).toEqual({});
  });
});
