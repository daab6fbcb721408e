import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHttpServer, startGitHttpServer } from '../../test/support/git-http-server.js';
import { localFileServer } from './local-channel.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-gitfs-'));
const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
};
const run = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: gitEnv, stdio: 'pipe' });

function repo(name: string, files: Record<string, string>): string {
  const dir = join(top, name);
  mkdirSync(dir, { recursive: true });
  run(dir, 'init', '-q', '-b', 'master');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  run(dir, 'add', '-A');
  run(dir, 'commit', '-qm', 'first');
  return dir;
}

const one = repo('one', { 'top.sls': 'base: {}', 'web/init.sls': 'web v1' });
run(one, 'tag', 'v1');
run(one, 'checkout', '-qb', 'dev');
writeFileSync(join(one, 'web', 'init.sls'), 'web dev');
run(one, 'commit', '-qam', 'dev change');
run(one, 'checkout', '-q', 'master');
const two = repo('two', { 'states/app.sls': 'app', README: 'not served' });

const lines: string[] = [];
const log = pino({ level: 'warn' }, { write: (l: string) => void lines.push(l) });
const config = {
  file_roots: { base: [join(top, 'roots')] },
  cachedir: join(top, 'cache'),
  hash_type: 'sha256',
  file_buffer_size: 1024,
  extra: {
    fileserver_backend: ['roots', 'gitfs'],
    gitfs_remotes: [
      `file://${one}`,
      { [`file://${two}`]: [{ root: 'states' }, { mountpoint: 'salt://mnt/two' }] },
      'http://127.0.0.1:9/unreachable.git',
    ],
  },
};
mkdirSync(join(top, 'roots'));
writeFileSync(join(top, 'roots', 'local.txt'), 'from roots');

afterAll(() => rmSync(top, { recursive: true, force: true }));

describe('gitfs', () => {
  const fs = localFileServer(config, log);

  it('serves branches and tags as saltenvs after an update, with per-remote root and mountpoint', async () => {
    expect(await fs.fileEnvs()).toEqual(['base']);
    const result = await fs.update();
    expect(result.gitfs).toMatchObject({ [`file://${one}`]: true, [`file://${two}`]: true });
    expect(await fs.fileEnvs()).toEqual(['base', 'dev', 'v1']);
    expect(await fs.fileList({ saltenv: 'base' })).toEqual([
      'local.txt',
      'mnt/two/app.sls',
      'top.sls',
      'web/init.sls',
    ]);
    const read = async (path: string, saltenv: string) =>
      Buffer.from((await fs.serveFile({ path, saltenv, loc: 0 })).data).toString();
    expect(await read('salt://web/init.sls', 'dev')).toBe('web dev');
    expect(await read('web/init.sls', 'v1')).toBe('web v1');
    expect(await read('salt://web/init.sls?saltenv=base', 'dev')).toBe('web v1');
    expect(await read('mnt/two/app.sls', 'base')).toBe('app');
    expect(await read('README', 'base')).toBe('');
    expect(await fs.dirList({ saltenv: 'base' })).toEqual(['mnt', 'mnt/two', 'web']);
  });

  it('logs an unreachable remote with its code and keeps serving the others', async () => {
    expect(lines.join('\n')).toContain('SALT_ERR_GITFS_REMOTE');
    expect(lines.join('\n')).toContain('http://127.0.0.1:9/unreachable.git');
    expect(await fs.fileHash({ path: 'top.sls', saltenv: 'base' })).toMatchObject({ hash_type: 'sha256' });
  });

  it('picks up new commits on the next update, and refuses traversal', async () => {
    writeFileSync(join(one, 'new.sls'), 'new');
    run(one, 'add', '-A');
    run(one, 'commit', '-qm', 'new');
    expect(await fs.fileList({ saltenv: 'base', prefix: 'new' })).toEqual([]);
    await fs.update();
    expect(await fs.fileList({ saltenv: 'base', prefix: 'new' })).toEqual(['new.sls']);
    expect(await fs.fileHash({ path: 'salt://../../../etc/passwd', saltenv: 'base' })).toBe('');
  });

  it('rejects a malformed remote with a clear error', () => {
    expect(() =>
      localFileServer({
        ...config,
        extra: { fileserver_backend: ['gitfs'], gitfs_remotes: [{ a: [{ bogus: 1 }] }] },
      }),
    ).toThrow(/SALT_ERR_GITFS_REMOTE|unknown per-remote option "bogus"/);
  });

  it('clears its cache', async () => {
    expect(await fs.clearCache()).toEqual({ gitfs: [join(top, 'cache', 'gitfs')] });
    expect(await fs.fileEnvs()).toEqual(['base']);
  });
});

describe('gitfs: per-remote name and saltenv, gitfs_saltenv (as Salt 3006 maps them)', () => {
  // `one` has master (base), dev and the tag v1
  const mapped = localFileServer(
    {
      ...config,
      cachedir: join(top, 'cache-mapped'),
      extra: {
        fileserver_backend: ['gitfs'],
        gitfs_remotes: [
          {
            [`file://${one}`]: [
              { name: 'one-mapped' },
              { saltenv: [{ prod: [{ ref: 'v1' }] }, { dev: [{ mountpoint: 'salt://devmnt' }] }] },
            ],
          },
          { [`file://${two}`]: [{ root: 'states' }, { mountpoint: 'salt://mnt' }] },
        ],
        gitfs_saltenv: [{ qa: [{ ref: 'dev' }] }],
      },
    },
    log,
  );

  it('a ref mapped to saltenvs serves them instead of its own name', async () => {
    await mapped.update();
    expect(await mapped.fileEnvs()).toEqual(['base', 'prod', 'qa']);
    const read = async (path: string, saltenv: string) =>
      Buffer.from((await mapped.serveFile({ path, saltenv, loc: 0 })).data).toString();
    expect(await read('web/init.sls', 'prod')).toBe('web v1');
    expect(await read('web/init.sls', 'qa')).toBe('web dev');
    expect(await mapped.fileList({ saltenv: 'dev' })).toEqual([]);
    // new.sls: committed to master by an earlier test
    expect(await mapped.fileList({ saltenv: 'base' })).toEqual([
      'mnt/app.sls',
      'new.sls',
      'top.sls',
      'web/init.sls',
    ]);
  });

  it('the name is the cache folder; two remotes of one URL need distinct names', () => {
    expect(readdirSync(join(top, 'cache-mapped', 'gitfs'))).toContain('one-mapped');
    const twice = { fileserver_backend: ['gitfs'], gitfs_remotes: [`file://${one}`, `file://${one}`] };
    expect(() => localFileServer({ ...config, extra: twice })).toThrow(/same cache folder/);
    const named = {
      fileserver_backend: ['gitfs'],
      gitfs_remotes: [{ [`file://${one}`]: [{ name: 'a' }] }, { [`file://${one}`]: [{ name: 'b' }] }],
    };
    expect(() => localFileServer({ ...config, extra: named })).not.toThrow();
    const bad = { fileserver_backend: ['gitfs'], gitfs_remotes: [{ [`file://${one}`]: [{ name: '../x' }] }] };
    expect(() => localFileServer({ ...config, extra: bad })).toThrow(/name/);
  });
});

describe('gitfs: https-style user/password auth against git http-backend', () => {
  let server: GitHttpServer;
  const served = join(top, 'served');
  beforeAll(async () => {
    mkdirSync(served, { recursive: true });
    run(top, 'clone', '-q', '--bare', one, join(served, 'one.git'));
    server = await startGitHttpServer(served, 'deploy', 'gitfs-pw-41');
  });
  afterAll(() => server?.close());

  const authed = (extra: Record<string, unknown>, cache: string) =>
    localFileServer(
      { ...config, cachedir: join(top, cache), extra: { fileserver_backend: ['gitfs'], ...extra } },
      log,
    );

  it('fetches with gitfs_user/gitfs_password and insecure_auth on plain http', async () => {
    const fs = authed(
      {
        gitfs_remotes: [`${server.url}/one.git`],
        gitfs_user: 'deploy',
        gitfs_password: 'gitfs-pw-41',
        gitfs_insecure_auth: true,
      },
      'cache-auth1',
    );
    expect(await fs.update()).toEqual({ gitfs: { [`${server.url}/one.git`]: true } });
    expect(await fs.fileEnvs()).toEqual(['base', 'dev', 'v1']);
  });

  it('per-remote user/password; without insecure_auth an http remote is refused, logged without the password', async () => {
    lines.length = 0;
    const remote = (more: object[]) => ({
      gitfs_remotes: [
        { [`${server.url}/one.git`]: [{ user: 'deploy' }, { password: 'gitfs-pw-41' }, ...more] },
      ],
    });
    const refused = authed(remote([]), 'cache-auth2');
    expect(await refused.update()).toEqual({ gitfs: { [`${server.url}/one.git`]: false } });
    expect(lines.join('\n')).toContain('insecure_auth');
    const ok = authed(remote([{ insecure_auth: true }]), 'cache-auth3');
    expect(await ok.update()).toEqual({ gitfs: { [`${server.url}/one.git`]: true } });
    const wrong = authed(
      {
        gitfs_remotes: [
          {
            [`${server.url}/one.git`]: [{ user: 'deploy' }, { password: 'nope-77' }, { insecure_auth: true }],
          },
        ],
      },
      'cache-auth4',
    );
    expect(await wrong.update()).toEqual({ gitfs: { [`${server.url}/one.git`]: false } });
    expect(lines.join('\n')).toContain('SALT_ERR_GITFS_REMOTE');
    expect(lines.join('\n')).not.toContain('gitfs-pw-41');
    expect(lines.join('\n')).not.toContain('nope-77');
  });
});
