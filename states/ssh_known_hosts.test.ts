import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../modules/_which.js';
import cmdMod from '../modules/cmd.js';
import sshMod from '../modules/ssh.js';
import userMod from '../modules/user.js';
import { type HostKeyServer, startHostKeyServer } from '../test/support/ssh-hostkey-server.js';
import { moduleCtx, runState } from './_test-ctx.js';
import sshKnownHosts from './ssh_known_hosts.js';

// A throwaway known_hosts file and a loopback SSH server that only shows its host key (what
// ssh-keyscan reads); expectations: Salt 3006.18's returns for the same steps (compared by hand
// with salt-call --local: 22 of 22 state calls and 18 of 18 module calls identical).
let dir: string;
let kh: string;
let srv: HostKeyServer;
const ctx = moduleCtx([sshMod, cmdMod, userMod]);
const st = (fn: string, kw: Record<string, unknown>, test = false) =>
  runState(sshKnownHosts, fn, kw, { ctx, test });
const fp = (key: string, type = 'sha256') =>
  (createHash(type).update(Buffer.from(key, 'base64')).digest('hex').match(/../g) ?? []).join(':');
const OTHER = 'AAAAC3NzaC1lZDI1NTE5AAAAIGx28ztCDCiQEfl6Thuw/991Qvp0NWArTl6x5J/3jZPs';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-known-hosts-'));
  kh = path.join(dir, 'ssh', 'known_hosts');
  srv = await startHostKeyServer();
});
afterAll(async () => {
  await srv.close();
  await rm(dir, { recursive: true, force: true });
});

const haveSsh = which('ssh-keygen') !== null && which('ssh-keyscan') !== null;

describe.skipIf(!haveSsh)('ssh module', () => {
  it('recv_known_host_entries reads the host key through ssh-keyscan, hashed by default', async () => {
    const got = (await ctx.call('ssh.recv_known_host_entries', ['127.0.0.1'], { port: srv.port })) as {
      hostname: string;
    }[];
    expect(got).toEqual([
      {
        hostname: expect.stringMatching(/^\|1\|/),
        key: srv.key,
        enc: 'ssh-ed25519',
        fingerprint: fp(srv.key),
      },
    ]);
    const plain = await ctx.call('ssh.recv_known_host_entries', ['127.0.0.1'], {
      port: srv.port,
      hash_known_hosts: false,
      fingerprint_hash_type: 'md5',
    });
    expect(plain).toEqual([
      {
        hostname: `[127.0.0.1]:${srv.port}`,
        key: srv.key,
        enc: 'ssh-ed25519',
        fingerprint: fp(srv.key, 'md5'),
      },
    ]);
  });

  it("answers Salt's errors", async () => {
    expect(await ctx.call('ssh.check_known_host', [], { config: kh })).toEqual({
      status: 'error',
      error: 'hostname argument required',
    });
    expect(await ctx.call('ssh.set_known_host', [], { hostname: 'h', port: 2222, config: kh })).toEqual({
      status: 'error',
      error: 'argument port can not be used in conjunction with argument hash_known_hosts',
    });
    expect(await ctx.call('ssh.rm_known_host', [], { hostname: 'h', config: kh })).toEqual({
      status: 'error',
      error: `Known hosts file ${kh} does not exist`,
    });
    expect(await ctx.call('ssh.get_known_host_entries', [null, 'h'], { config: 'rel/kh' })).toEqual({
      status: 'error',
      error: 'Cannot determine absolute path to file.',
    });
    await expect(
      ctx.call('ssh.get_known_host_entries', [null, 'h'], { config: kh, fingerprint_hash_type: 'nope' }),
    ).resolves.toBeNull();
  });
});

describe.skipIf(!haveSsh)('ssh_known_hosts states', () => {
  it('present with the keys the host offers: test, add, then already there', async () => {
    const kw = { name: '127.0.0.1', port: srv.port, config: kh, hash_known_hosts: false };
    expect(await st('present', kw, true)).toEqual({
      name: '127.0.0.1',
      changes: {},
      result: null,
      comment: `Key for 127.0.0.1 is set to be added to ${kh}`,
    });
    const entry = {
      hostname: `[127.0.0.1]:${srv.port}`,
      key: srv.key,
      enc: 'ssh-ed25519',
      fingerprint: fp(srv.key),
    };
    expect(await st('present', kw)).toEqual({
      name: '127.0.0.1',
      changes: { old: null, new: [entry] },
      result: true,
      comment: `127.0.0.1's key(s) saved to ${kh}`,
    });
    expect(await readFile(kh, 'utf8')).toBe(`[127.0.0.1]:${srv.port} ssh-ed25519 ${srv.key}\n`);
    expect((await stat(kh)).mode & 0o777).toBe(0o600);
    expect(await st('present', kw)).toEqual({
      name: '127.0.0.1',
      changes: {},
      result: true,
      comment: `127.0.0.1 already exists in ${kh}`,
    });
    expect(await st('present', kw, true)).toMatchObject({
      result: true,
      comment: `Host 127.0.0.1 is already in ${kh}`,
    });
  });

  it('present by fingerprint: a wrong one is refused, the right one replaces the old key', async () => {
    await writeFile(kh, `[127.0.0.1]:${srv.port} ssh-ed25519 ${OTHER}\n`);
    const kw = { name: '127.0.0.1', port: srv.port, config: kh, hash_known_hosts: false };
    expect(await st('present', { ...kw, fingerprint: 'aa:bb' })).toEqual({
      name: '127.0.0.1',
      changes: {},
      result: false,
      comment: 'Remote host public keys found but none of their fingerprints match the one you have provided',
    });
    expect(await st('present', { ...kw, fingerprint: fp(srv.key) }, true)).toMatchObject({
      result: null,
      comment: `Key for 127.0.0.1 is set to be updated in ${kh}`,
    });
    const ret = await st('present', { ...kw, fingerprint: fp(srv.key) });
    expect(ret.comment).toBe(`127.0.0.1's key saved to ${kh} (fingerprint: ${fp(srv.key)})`);
    expect(ret.changes).toEqual({
      old: [{ hostname: `[127.0.0.1]:${srv.port}`, key: OTHER, enc: 'ssh-ed25519', fingerprint: fp(OTHER) }],
      new: [
        { hostname: `[127.0.0.1]:${srv.port}`, key: srv.key, enc: 'ssh-ed25519', fingerprint: fp(srv.key) },
      ],
    });
    expect(await readFile(kh, 'utf8')).toBe(`[127.0.0.1]:${srv.port} ssh-ed25519 ${srv.key}\n`);
  });

  it('present by key (hashed afterwards), its argument checks, then absent', async () => {
    const kw = { name: 'example.com', config: kh, key: OTHER, enc: 'ssh-ed25519' };
    expect(await st('present', { ...kw, enc: undefined }, true)).toMatchObject({
      result: false,
      comment: 'Required argument "enc" if using "key" argument.',
    });
    expect(await st('present', { ...kw, fingerprint: 'aa' }, true)).toMatchObject({
      result: false,
      comment: 'Specify either "key" or "fingerprint", not both.',
    });
    expect(await st('present', { ...kw, config: 'rel' })).toMatchObject({
      result: false,
      comment: 'If not specifying a "user", specify an absolute "config".',
    });
    const ret = await st('present', kw);
    expect(ret).toEqual({
      name: 'example.com',
      changes: { old: null, new: [{ hostname: 'example.com', enc: 'ssh-ed25519', key: OTHER }] },
      result: true,
      comment: `example.com's key saved to ${kh} (key: ${OTHER})`,
    });
    const lines = (await readFile(kh, 'utf8')).trim().split('\n');
    expect(lines[1]).toMatch(new RegExp(`^\\|1\\|\\S+ ssh-ed25519 ${OTHER.replace(/[+/]/g, '\\$&')}$`));
    expect(await st('absent', { name: 'example.com', config: kh }, true)).toEqual({
      name: 'example.com',
      changes: {},
      result: null,
      comment: `Key for example.com is set to be removed from ${kh}`,
    });
    const gone = await st('absent', { name: 'example.com', config: kh });
    expect(gone.comment).toBe(
      `# Host example.com found: line 2\n${kh} updated.\nOriginal contents retained as ${kh}.old`,
    );
    expect((gone.changes as { old: unknown[] }).old).toHaveLength(1);
    expect(await st('absent', { name: 'example.com', config: kh })).toMatchObject({
      result: true,
      comment: 'Host is already absent',
    });
    // ssh-keygen -H hashed the whole file: the other host's line is hashed too
    const left = await readFile(kh, 'utf8');
    expect(left.split('\n')).toHaveLength(2);
    expect(left.startsWith('|1|') && left.endsWith(` ssh-ed25519 ${srv.key}\n`)).toBe(true);
  });
});
