import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHttpServer, startGitHttpServer } from '../../test/support/git-http-server.js';
import { authEnv, GitAuthConfigError } from './auth.js';
import { GitMirror } from './mirror.js';
import { redactUrl } from './redact.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-gitauth-'));
const helpers = join(top, 'helpers');
afterAll(() => rmSync(top, { recursive: true, force: true }));

describe('authEnv: what git gets for each transport', () => {
  const key = join(top, 'id_test');
  writeFileSync(key, 'not a real key');
  writeFileSync(`${key}.pub`, 'not a real key');

  it('no auth, file:// and git:// take none', () => {
    expect(authEnv('gitfs', 'https://h/r.git', {}, helpers)).toEqual({});
    expect(authEnv('gitfs', 'file:///srv/r', { user: 'u', password: 'p' }, helpers)).toEqual({});
    expect(authEnv('gitfs', '/srv/r', { user: 'u', password: 'p' }, helpers)).toEqual({});
    expect(authEnv('gitfs', 'git://h/r', { user: 'u', password: 'p' }, helpers)).toEqual({});
  });

  it('ssh keys: ssh -i <privkey>; a passphrase through SSH_ASKPASS, never on the command line', () => {
    const env = authEnv('gitfs', 'git@h:r.git', { pubkey: `${key}.pub`, privkey: key }, helpers);
    expect(env).toEqual({ GIT_SSH_COMMAND: `ssh -i '${key}' -o IdentitiesOnly=yes -o BatchMode=yes` });
    const withPass = authEnv(
      'gitfs',
      'ssh://git@h/r.git',
      { pubkey: `${key}.pub`, privkey: key, passphrase: 'pp-secret' },
      helpers,
    );
    expect(withPass.GIT_SSH_COMMAND).not.toContain('pp-secret');
    expect(withPass.SSH_ASKPASS_REQUIRE).toBe('force');
    expect(withPass.TSALT_GIT_PASSPHRASE).toBe('pp-secret');
    expect(readFileSync(withPass.SSH_ASKPASS!, 'utf8')).not.toContain('pp-secret');
    // the askpass script answers ssh's passphrase prompt from the environment
    const out = execFileSync(withPass.SSH_ASKPASS!, ["Enter passphrase for key 'x': "], {
      env: { TSALT_GIT_PASSPHRASE: 'pp-secret' },
    });
    expect(out.toString()).toBe('pp-secret\n');
  });

  it.each([
    ['ssh without privkey', 'git@h:r.git', { pubkey: 'x' }, /missing privkey/],
    ['ssh without a user in the URL', 'ssh://h/r.git', { pubkey: 'x', privkey: 'y' }, /missing a username/],
    [
      'ssh with a key file that is not there',
      'git@h:r.git',
      { pubkey: '/nonexistent.pub', privkey: '/nonexistent' },
      /could not be found/,
    ],
    ['https with a user and no password', 'https://h/r.git', { user: 'u' }, /missing password/],
    [
      'a password over plain http',
      'http://h/r.git',
      { user: 'u', password: 'p' },
      /gitfs_insecure_auth to True/,
    ],
  ])('%s is refused', (_name, url, auth, message) => {
    expect(() => authEnv('gitfs', url, auth, helpers)).toThrow(GitAuthConfigError);
    expect(() => authEnv('gitfs', url, auth, helpers)).toThrow(message);
  });

  it('redactUrl masks the password of a URL only', () => {
    expect(redactUrl('fetch http://u:p%40ss@h/r.git and https://h/x')).toBe(
      'fetch http://u:***@h/r.git and https://h/x',
    );
    expect(redactUrl('git@github.com:org/repo.git')).toBe('git@github.com:org/repo.git');
  });
});

describe('GitMirror.fetch over http with basic auth (git http-backend)', () => {
  let server: GitHttpServer;
  const repos = join(top, 'served');
  beforeAll(async () => {
    const src = join(repos, 'p.git');
    mkdirSync(src, { recursive: true });
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@e.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@e.invalid',
    };
    execFileSync('git', ['init', '-q', '-b', 'master', src], { env });
    writeFileSync(join(src, 'f.txt'), 'hello');
    execFileSync('git', ['add', '-A'], { cwd: src, env });
    execFileSync('git', ['commit', '-qm', 'c'], { cwd: src, env });
    server = await startGitHttpServer(repos, 'deploy', 's3cret-pw');
  });
  afterAll(() => server?.close());

  it('fetches with the right password (insecure_auth), given through the environment only', async () => {
    const url = `${server.url}/p.git`;
    const env = authEnv(
      'gitfs',
      url,
      { user: 'deploy', password: 's3cret-pw', insecure_auth: true },
      helpers,
    );
    const mirror = new GitMirror(join(top, 'm1'));
    expect(await mirror.fetch(url, env)).toBe(true);
    expect((await mirror.refs()).map((r) => r.name)).toEqual(['master']);
    expect(server.users).toContain('deploy');
    expect(JSON.stringify(Object.keys(env))).not.toContain('s3cret');
  });

  it('a wrong password fails with git’s message and no password in it', async () => {
    const url = `${server.url}/p.git`;
    const env = authEnv('gitfs', url, { user: 'deploy', password: 'wrong-pw', insecure_auth: true }, helpers);
    const err = await new GitMirror(join(top, 'm2')).fetch(url, env).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/git fetch failed/);
    expect((err as Error).message).not.toContain('wrong-pw');
  });

  it('a password in the URL is masked in the error', async () => {
    const url = `${server.url.replace('http://', 'http://deploy:url-pw@')}/missing.git`;
    const err = await new GitMirror(join(top, 'm3')).fetch(url).catch((e: Error) => e);
    expect((err as Error).message).not.toContain('url-pw');
  });
});
