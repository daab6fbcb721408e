// gitfs_refspecs and the saltenv white/blacklists, global and per remote, against real local
// repositories (each case checked by hand against Salt 3006's gitfs with GitPython).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { gitRepo } from '../../test/support/git-repo.js';
import { localFileServer } from './local-channel.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-gitfs-refspecs-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

// master, dev, feature/x, prod (+ tag v1), and a pull-request head outside refs/heads
const src = gitRepo(join(top, 'src'));
src.commit({ 'a.txt': 'base' });
src.git('checkout', '-qb', 'dev');
src.commit({ 'a.txt': 'dev' });
src.git('checkout', '-qb', 'feature/x');
src.commit({ 'a.txt': 'fx' });
src.git('checkout', '-qb', 'prod', 'master');
src.commit({ 'a.txt': 'prod' });
src.git('tag', 'v1');
src.git('checkout', '-q', '--detach', 'dev');
src.git('update-ref', 'refs/pull/1/head', src.commit({ 'a.txt': 'pr1' }));
src.git('checkout', '-q', 'master');

const log = pino({ level: 'silent' });
let n = 0;
function server(extra: Record<string, unknown>) {
  const fs = localFileServer(
    {
      file_roots: {},
      cachedir: join(top, `cache-${n++}`),
      hash_type: 'sha256',
      file_buffer_size: 1024,
      extra: { fileserver_backend: ['gitfs'], ...extra },
    },
    log,
  );
  const read = async (saltenv: string) =>
    Buffer.from((await fs.serveFile({ path: 'a.txt', saltenv, loc: 0 })).data).toString() || false;
  return { fs, read };
}

describe('gitfs saltenv white- and blacklists', () => {
  it('a global blacklist of a name and a regex hides those saltenvs from envs and serving', async () => {
    const { fs, read } = server({ gitfs_remotes: [src.url], gitfs_saltenv_blacklist: ['v1', 'feat.*'] });
    await fs.update();
    expect(await fs.fileEnvs()).toEqual(['base', 'dev', 'prod']);
    expect(await read('v1')).toBe(false);
    expect(await fs.fileList({ saltenv: 'feature/x' })).toEqual([]);
    expect(await read('dev')).toBe('dev');
  });

  it('a per-remote whitelist (comma string) and globs; a per-remote list overrides the global one', async () => {
    const { fs, read } = server({
      gitfs_saltenv_whitelist: ['*e*', 'v1'],
      gitfs_saltenv_blacklist: 'prod',
      gitfs_refspecs: ['+refs/heads/*:refs/remotes/origin/*'],
      gitfs_remotes: [
        src.url,
        {
          [src.url]: [
            { name: 'tags-only' },
            { saltenv_blacklist: [] },
            { saltenv_whitelist: 'v1' },
            { refspecs: '+refs/tags/*:refs/tags/*' },
          ],
        },
      ],
    });
    await fs.update();
    expect(await fs.fileEnvs()).toEqual(['base', 'dev', 'feature/x', 'v1']);
    expect(await read('v1')).toBe('prod');
    expect(await read('prod')).toBe(false);
    expect(await read('base')).toBe('base');
  });

  it('saltenvs mapped by ref are listed even when the ref is missing, unless blacklisted', async () => {
    const { fs, read } = server({
      gitfs_remotes: [
        {
          [src.url]: [
            { saltenv: [{ staging: [{ ref: 'dev' }] }, { ghost: [{ ref: 'nosuch' }] }] },
            { saltenv_blacklist: ['[fv]*'] },
          ],
        },
      ],
    });
    await fs.update();
    expect(await fs.fileEnvs()).toEqual(['base', 'ghost', 'prod', 'staging']);
    expect(await read('staging')).toBe('dev');
    expect(await read('ghost')).toBe(false);
  });
});

describe('gitfs_refspecs', () => {
  it('a per-remote refspec fetching pull-request heads under refs/remotes/origin/ makes them saltenvs', async () => {
    const { fs, read } = server({
      gitfs_remotes: [
        {
          [src.url]: [
            { saltenv_whitelist: 'base,dev, pr/.*' },
            {
              refspecs: ['+refs/heads/*:refs/remotes/origin/*', '+refs/pull/*/head:refs/remotes/origin/pr/*'],
            },
          ],
        },
      ],
    });
    await fs.update();
    expect(await fs.fileEnvs()).toEqual(['base', 'dev', 'pr/1']);
    expect(await read('pr/1')).toBe('pr1');
    expect(await read('prod')).toBe(false);
  });

  it('a malformed refspec is a config error naming it', () => {
    expect(() => server({ gitfs_remotes: [{ [src.url]: [{ refspecs: 'bad refspec' }] }] })).toThrow(
      /SALT_ERR_GITFS_REMOTE|invalid refspec "bad refspec"/,
    );
    expect(() => server({ gitfs_remotes: [src.url], gitfs_refspecs: ['--upload-pack=x'] })).toThrow(
      /invalid refspec/,
    );
  });
});
