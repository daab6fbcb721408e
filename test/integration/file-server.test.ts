/**
 * The file server and `cp` end to end: a real master serving `file_roots` and a real gitfs
 * remote (a git repository made here), a real minion copying, caching and pushing files, and
 * every refusal (traversal, a symlink out of the root, an unknown saltenv, an unreachable git
 * remote, a push over `file_recv_max_size`) answered as Salt answers, with a coded log line.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, runCli } from '../../tools/local-cluster.js';

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: gitEnv, stdio: 'pipe' });

function write(path: string, text: string | Buffer): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('file server and cp', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const srv = join(c.root, 'srv');
  const repo = join(c.root, 'repo');
  const repo2 = join(c.root, 'repo2');
  const out = join(c.root, 'out');
  const masterCache = join(c.root, 'var', 'cache', 'salt', 'master');
  const minionCache = join(c.root, 'minions', 'm1', 'var', 'cache', 'salt', 'minion');
  let http: Server;
  let httpPort = 0;

  const cp = async (...args: string[]) => (await c.saltJson(['m1', ...args])).data.m1;

  beforeAll(async () => {
    write(join(srv, 'salt', 'hello.txt'), 'hello from base\n');
    write(join(srv, 'salt', 'web', 'init.sls'), 'web: {}\n');
    write(join(srv, 'salt', 'web', 'files', 'a.conf'), 'a\n');
    write(join(srv, 'salt', 'web', 'files', 'sub', 'b.conf'), 'b\n');
    write(join(srv, 'salt', 'notes.bak'), 'ignored\n');
    mkdirSync(join(srv, 'salt', 'web', 'files', 'empty'), { recursive: true });
    write(join(srv, 'second', 'hello.txt'), 'shadowed\n');
    write(join(srv, 'second', 'only-second.txt'), 'second root\n');
    write(join(srv, 'dev', 'hello.txt'), 'hello from dev\n');
    write(join(srv, 'salt', 'tpl', 'motd.j2'), "id={{ grains['id'] }} env={{ saltenv }} who={{ who }}\n");
    write(join(srv, 'salt', 'tpl', 'broken.j2'), 'line one\n{{ undefined_thing.attr }}\n');
    write(join(srv, 'salt', 'm1.txt'), 'named after the minion\n');
    write(join(c.root, 'outside', 'shadow'), 'root:secret\n');
    symlinkSync(join(c.root, 'outside', 'shadow'), join(srv, 'salt', 'escape'));
    symlinkSync(join(srv, 'salt', 'hello.txt'), join(srv, 'salt', 'hello-link'));
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'master');
    write(join(repo, 'from-git.sls'), 'git: base\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'one');
    git(repo, 'tag', 'v1');
    git(repo, 'checkout', '-qb', 'feature');
    write(join(repo, 'from-git.sls'), 'git: feature\n');
    git(repo, 'commit', '-qam', 'feature');
    git(repo, 'checkout', '-q', 'master');
    mkdirSync(repo2);
    git(repo2, 'init', '-q', '-b', 'master');
    write(join(repo2, 'states', 'app.sls'), 'app\n');
    git(repo2, 'add', '-A');
    git(repo2, 'commit', '-qm', 'one');
    Object.assign(master, {
      file_roots: { base: [join(srv, 'salt'), join(srv, 'second')], dev: [join(srv, 'dev')] },
      file_ignore_glob: ['*.bak'],
      file_recv: true,
      file_recv_max_size: 1,
      file_buffer_size: 65536,
      fileserver_backend: ['roots', 'gitfs'],
      gitfs_update_interval: 3600,
      gitfs_remotes: [
        `file://${repo}`,
        { [`file://${repo2}`]: [{ root: 'states' }, { mountpoint: 'salt://mnt/app' }] },
        'http://127.0.0.1:9/unreachable.git',
      ],
    });
    http = createServer((req, res) => {
      if (req.url === '/data.txt') res.end('over http\n');
      else {
        res.statusCode = 404;
        res.end('no');
      }
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    httpPort = (http.address() as AddressInfo).port;
    mkdirSync(out);
    await c.startMaster();
    await c.startMinion('m1');
  }, 90_000);
  afterAll(async () => {
    http.close();
    await c.stop();
  });

  it('lists what roots and gitfs serve, by saltenv, branches and tags included', async () => {
    expect(await cp('cp.envs')).toEqual(['base', 'dev', 'feature', 'v1']);
    const base = (await cp('cp.list_master')) as string[];
    expect(base).toEqual([
      'from-git.sls',
      'hello-link',
      'hello.txt',
      'm1.txt',
      'mnt/app/app.sls',
      'only-second.txt',
      'tpl/broken.j2',
      'tpl/motd.j2',
      'web/files/a.conf',
      'web/files/sub/b.conf',
      'web/init.sls',
    ]);
    expect(await cp('cp.list_master', 'prefix=web/files')).toEqual([
      'web/files/a.conf',
      'web/files/sub/b.conf',
    ]);
    expect(await cp('cp.list_master', 'saltenv=nope')).toEqual([]);
    expect(await cp('cp.list_master_dirs')).toEqual([
      'mnt',
      'mnt/app',
      'tpl',
      'web',
      'web/files',
      'web/files/empty',
      'web/files/sub',
    ]);
    expect(await cp('cp.list_master_symlinks')).toEqual({ 'hello-link': join(srv, 'salt', 'hello.txt') });
    expect(await cp('cp.list_states')).toEqual(['from-git', 'mnt.app.app', 'web']);
  });

  it('get_file copies a file, keeps an unchanged copy, honours ?saltenv= and gzip', async () => {
    const dest = join(out, 'hello.txt');
    expect(await cp('cp.get_file', 'salt://hello.txt', dest)).toBe(dest);
    expect(readFileSync(dest, 'utf8')).toBe('hello from base\n');
    const before = statSync(dest);
    await new Promise((r) => setTimeout(r, 20));
    expect(await cp('cp.get_file', 'salt://hello.txt', dest)).toBe(dest);
    expect(statSync(dest).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(dest).ino).toBe(before.ino);
    const dev = join(out, 'dev', 'hello.txt');
    expect(await cp('cp.get_file', 'salt://hello.txt?saltenv=dev', dev, 'makedirs=True')).toBe(dev);
    expect(readFileSync(dev, 'utf8')).toBe('hello from dev\n');
    expect(await cp('cp.get_file', 'salt://only-second.txt', join(out, 'nodir', 'x'))).toBe(false);
    const gz = join(out, 'gz.conf');
    expect(await cp('cp.get_file', 'salt://web/files/a.conf', gz, 'gzip=5')).toBe(gz);
    expect(readFileSync(gz, 'utf8')).toBe('a\n');
    const branch = join(out, 'feature.sls');
    expect(await cp('cp.get_file', 'salt://from-git.sls', branch, 'saltenv=feature')).toBe(branch);
    expect(readFileSync(branch, 'utf8')).toBe('git: feature\n');
  });

  it('refuses traversal, a symlink out of the root, ignored files and unknown saltenvs as Salt does', async () => {
    for (const bad of [
      'salt://../../etc/shadow',
      'salt://web/../../outside/shadow',
      'salt://escape',
      'salt://notes.bak',
    ]) {
      expect(await cp('cp.get_file', bad, join(out, 'bad')), bad).toBe('');
      expect(await cp('cp.hash_file', bad), bad).toBe('');
    }
    expect(existsSync(join(out, 'bad'))).toBe(false);
    expect(await cp('cp.get_file', 'salt://hello.txt', join(out, 'x'), 'saltenv=nope')).toBe('');
    expect(await cp('cp.cache_file', 'salt://missing.txt')).toBe(false);
    const log = c.master?.out ?? '';
    expect(log).toContain('SALT_ERR_FILESERVER_PATH_REFUSED');
    expect(log).toContain('refused to serve "../../etc/shadow"');
    expect(log).toContain('its real path leaves the file root');
  });

  it('caches files and directories in <cachedir>/files/<saltenv>/', async () => {
    const cached = join(minionCache, 'files', 'base', 'web', 'init.sls');
    expect(await cp('cp.cache_file', 'salt://web/init.sls')).toBe(cached);
    expect(await cp('cp.is_cached', 'salt://web/init.sls')).toBe(cached);
    expect(await cp('cp.is_cached', 'salt://web/nope.sls')).toBe('');
    expect(await cp('cp.get_file_str', 'salt://hello.txt')).toBe('hello from base\n');
    expect(await cp('cp.cache_files', 'salt://hello.txt,salt://nope')).toEqual([
      join(minionCache, 'files', 'base', 'hello.txt'),
      false,
    ]);
    expect(await cp('cp.cache_dir', 'salt://web/files', 'include_empty=True')).toEqual([
      join(minionCache, 'files', 'base', 'web', 'files', 'a.conf'),
      join(minionCache, 'files', 'base', 'web', 'files', 'sub', 'b.conf'),
      join(minionCache, 'files', 'base', 'web', 'files', 'empty'),
    ]);
    const mine = (await cp('cp.list_minion')) as string[];
    expect(mine).toContain(cached);
    expect(await cp('cp.hash_file', 'salt://hello.txt')).toMatchObject({ hash_type: 'sha256' });
    expect(await cp('cp.stat_file', 'salt://hello.txt')).toMatch(/^0[0-7]{3}$/);
    const local = await cp('cp.cache_local_file', join(srv, 'dev', 'hello.txt'));
    expect(local).toBe(join(minionCache, 'localfiles', srv.slice(1), 'dev', 'hello.txt'));
    expect(await cp('cp.cache_local_file', '/nonexistent/file')).toBe('');
  });

  it('get_dir copies a directory tree', async () => {
    const dest = join(out, 'tree');
    expect(await cp('cp.get_dir', 'salt://web/files', dest)).toEqual([
      join(dest, 'files', 'a.conf'),
      join(dest, 'files', 'empty'),
      join(dest, 'files', 'sub', 'b.conf'),
    ]);
    expect(readFileSync(join(dest, 'files', 'sub', 'b.conf'), 'utf8')).toBe('b\n');
  });

  it('get_url fetches salt://, file:// and http:// URLs', async () => {
    const dest = join(out, 'url.txt');
    expect(await cp('cp.get_url', 'salt://hello.txt', dest)).toBe(dest);
    expect(await cp('cp.get_url', `file://${join(srv, 'dev', 'hello.txt')}`, join(out, 'f.txt'))).toBe(
      join(out, 'f.txt'),
    );
    expect(readFileSync(join(out, 'f.txt'), 'utf8')).toBe('hello from dev\n');
    const url = `http://127.0.0.1:${httpPort}/data.txt`;
    expect(await cp('cp.get_url', url, join(out, 'h.txt'))).toBe(join(out, 'h.txt'));
    expect(readFileSync(join(out, 'h.txt'), 'utf8')).toBe('over http\n');
    expect(await cp('cp.get_url', url, 'dest=None')).toBe('over http\n');
    expect(await cp('cp.get_url', url)).toBe(
      join(minionCache, 'extrn_files', 'base', `127.0.0.1${httpPort}`, 'data.txt'),
    );
    expect(String(await cp('cp.get_url', `http://127.0.0.1:${httpPort}/missing`, join(out, 'm')))).toContain(
      'HTTP error 404',
    );
  });

  it('push sends a file to <cachedir>/minions/<id>/files/ and refuses one over file_recv_max_size', async () => {
    const small = join(out, 'push', 'small.txt');
    write(small, 'pushed\n');
    expect(await cp('cp.push', small)).toBe(true);
    expect(readFileSync(join(masterCache, 'minions', 'm1', 'files', small.slice(1)), 'utf8')).toBe(
      'pushed\n',
    );
    expect(await cp('cp.push', small, 'upload_path=/renamed/s.txt')).toBe(true);
    expect(existsSync(join(masterCache, 'minions', 'm1', 'files', 'renamed', 's.txt'))).toBe(true);
    expect(await cp('cp.push', 'relative/path')).toBe(false);
    expect(await cp('cp.push', small, 'upload_path=../../escape')).toBe(false);
    write(join(out, 'push', 'sub', 'two.conf'), 'two\n');
    expect(await cp('cp.push_dir', join(out, 'push'), 'glob=*.conf')).toBe(true);
    expect(
      existsSync(join(masterCache, 'minions', 'm1', 'files', out.slice(1), 'push', 'sub', 'two.conf')),
    ).toBe(true);
    const big = join(out, 'big.bin');
    writeFileSync(big, Buffer.alloc(1024 * 1024 + 10, 1));
    expect(await cp('cp.push', big)).toBe(false);
    expect(c.master?.out ?? '').toContain('SALT_ERR_FILE_RECV');
    expect(c.master?.out ?? '').toContain('file_recv_max_size (1 MiB) exceeded');
  });

  it('gitfs: an unreachable remote is logged and the others serve; fileserver.update fetches new commits', async () => {
    expect(c.master?.out ?? '').toContain('SALT_ERR_GITFS_REMOTE');
    expect(c.master?.out ?? '').toContain('http://127.0.0.1:9/unreachable.git');
    write(join(repo, 'added.sls'), 'added\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'added');
    expect(await cp('cp.list_master', 'prefix=added')).toEqual([]);
    const r = await c.saltRun(['--out', 'json', 'fileserver.update']);
    expect(JSON.parse(r.stdout)).toBe(true);
    expect(r.stderr).toContain('unreachable.git could not be fetched');
    expect(await cp('cp.list_master', 'prefix=added')).toEqual(['added.sls']);
    expect(await cp('cp.get_file_str', 'salt://mnt/app/app.sls')).toBe('app\n');
  });

  it('the fileserver runner lists saltenvs, files and directories', async () => {
    const run = async (...args: string[]) => JSON.parse((await c.saltRun(['--out', 'json', ...args])).stdout);
    expect(await run('fileserver.envs')).toEqual(['base', 'dev', 'feature', 'v1']);
    expect(await run('fileserver.envs', 'backend=roots')).toEqual(['base', 'dev']);
    expect(await run('fileserver.file_list', 'saltenv=dev')).toEqual(['hello.txt']);
    expect(await run('fileserver.file_list', 'backend=gitfs')).toEqual([
      'added.sls',
      'from-git.sls',
      'mnt/app/app.sls',
    ]);
    expect(await run('fileserver.dir_list', 'backend=roots')).toEqual([
      'tpl',
      'web',
      'web/files',
      'web/files/empty',
      'web/files/sub',
    ]);
    expect(await run('fileserver.empty_dir_list')).toEqual(['web/files/empty']);
    expect(await run('fileserver.clear_file_list_cache')).toEqual({});
  });

  it('get_template renders with grains and keyword arguments; template=jinja renders file names', async () => {
    const dest = join(out, 'motd');
    expect(await cp('cp.get_template', 'salt://tpl/motd.j2', dest, 'who=ops')).toBe(dest);
    expect(readFileSync(dest, 'utf8')).toBe('id=m1 env=base who=ops\n');
    expect(await cp('cp.get_template', 'salt://tpl/broken.j2', join(out, 'broken'))).toBe('');
    expect(existsSync(join(out, 'broken'))).toBe(false);
    expect(await cp('cp.get_template', 'salt://tpl/missing.j2', join(out, 'missing'))).toBe('');
    const named = join(out, 'named-m1.txt');
    expect(
      await cp(
        'cp.get_file',
        "salt://{{ grains['id'] }}.txt",
        join(out, "named-{{ grains['id'] }}.txt"),
        'template=jinja',
      ),
    ).toBe(named);
    expect(readFileSync(named, 'utf8')).toBe('named after the minion\n');
  });

  it('salt-call --local serves the minion its own file_roots (masterless)', async () => {
    const dir = join(c.root, 'minions', 'solo', 'etc');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'minion'),
      JSON.stringify({
        id: 'solo',
        root_dir: join(c.root, 'minions', 'solo'),
        master: '127.0.0.1',
        master_port: 1,
        file_roots: { base: [join(srv, 'dev')] },
      }),
    );
    const r = await runCli('salt-call', ['-c', dir, '--local', '--out', 'json', 'cp.list_master']);
    expect(JSON.parse(r.stdout)).toEqual({ local: ['hello.txt'] });
    const dest = join(out, 'solo.txt');
    const g = await runCli('salt-call', [
      '-c',
      dir,
      '--local',
      '--out',
      'json',
      'cp.get_file',
      'salt://hello.txt',
      dest,
    ]);
    expect(JSON.parse(g.stdout)).toEqual({ local: dest });
    expect(readFileSync(dest, 'utf8')).toBe('hello from dev\n');
  });
});

describe('gitfs refresh by the fileserver-update process', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const repo = join(c.root, 'repo');

  beforeAll(async () => {
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    write(join(repo, 'one.sls'), 'one\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'one');
    Object.assign(master, {
      file_roots: { base: [] },
      fileserver_backend: ['gitfs'],
      gitfs_base: 'main',
      gitfs_update_interval: 1,
      gitfs_remotes: [`file://${repo}`],
    });
    await c.startMaster();
  }, 60_000);
  afterAll(() => c.stop());

  it('serves a new commit within gitfs_update_interval, with no runner call', async () => {
    const list = async () => JSON.parse((await c.saltRun(['--out', 'json', 'fileserver.file_list'])).stdout);
    expect(await list()).toEqual(['one.sls']);
    write(join(repo, 'two.sls'), 'two\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'two');
    const deadline = Date.now() + 20_000;
    let seen: unknown = [];
    while (Date.now() < deadline) {
      seen = await list();
      if (Array.isArray(seen) && seen.includes('two.sls')) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(seen).toEqual(['one.sls', 'two.sls']);
  });
});
