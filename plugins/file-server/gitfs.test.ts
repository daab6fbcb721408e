import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
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
