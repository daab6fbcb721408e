import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sshMod from '../modules/ssh.js';
import userMod from '../modules/user.js';
import { moduleCtx, runState } from './_test-ctx.js';
import sshAuth from './ssh_auth.js';

// A throwaway authorized_keys file (absolute `config`) for root; expectations: Salt 3006.18's.
const K1 = 'AAAAC3NzaC1lZDI1NTE5AAAAIL7KRbllOngf4zBHmCq4xG1Tt1evI+fqszzdPCVWMUSS';
const K2 = 'AAAAC3NzaC1lZDI1NTE5AAAAIJFQuIQaVxX7NFTyfl3rNBp+h9dFrsmXPceYSM54eFBV';
let dir: string;
let config: string;
let ctx: ReturnType<typeof moduleCtx>;
const st = (fn: string, kw: Record<string, unknown>, test = false) =>
  runState(sshAuth, fn, { user: 'root', config, ...kw }, { ctx, test });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-sshauth-'));
  config = path.join(dir, 'ssh', 'ak');
  ctx = moduleCtx([sshMod, userMod]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.runIf(process.getuid?.() === 0)('ssh_auth states', () => {
  it('adds, updates, keeps and removes a key', async () => {
    expect(await st('present', { name: K1, enc: 'ed25519', comment: 'a@h' }, true)).toEqual({
      name: K1,
      changes: {},
      result: null,
      comment: `Key ${K1} for user root is set to be added`,
    });
    expect(await st('present', { name: K1, enc: 'ed25519', comment: 'a@h' })).toEqual({
      name: K1,
      changes: { [K1]: 'New' },
      result: true,
      comment: `The authorized host key ${K1} for user root was added`,
    });
    expect((await stat(config)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(config))).mode & 0o777).toBe(0o700);
    const full = `no-pty,from="10.0.0.1" ssh-ed25519 ${K1} a b`;
    expect(await st('present', { name: full })).toEqual({
      name: full,
      changes: { [K1]: 'Updated' },
      result: true,
      comment: `The authorized host key ${K1} for user root was updated`,
    });
    expect(await readFile(config, 'utf8')).toBe(`no-pty,from="10.0.0.1" ssh-ed25519 ${K1} a b\n`);
    expect((await st('present', { name: full }, true)).result).toBe(true);
    expect(await st('present', { name: 'not base64!' })).toMatchObject({
      name: 'not base64!',
      result: false,
      comment: 'Invalid public ssh key, most likely has spaces or invalid syntax',
    });
    expect(await st('manage', { name: 'm', ssh_keys: [`ssh-ed25519 ${K2} c@h`] }, true)).toEqual({
      name: '',
      changes: {},
      result: null,
      comment: `${K1} Key set for removal\nKey ${K2} for user root is set to be added`,
    });
    expect(await st('manage', { name: 'm', ssh_keys: [`ssh-ed25519 ${K2} c@h`] })).toEqual({
      name: '',
      changes: { [K1]: 'Key removed', [K2]: 'New' },
      result: true,
      comment: '',
    });
    expect(await st('absent', { name: `ssh-ed25519 ${K2}` })).toEqual({
      name: `ssh-ed25519 ${K2}`,
      changes: { [K2]: 'Removed' },
      result: true,
      comment: 'Key removed',
    });
    expect(await readFile(config, 'utf8')).toBe('');
  });
});
