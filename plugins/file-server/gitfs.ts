/**
 * The `gitfs` backend (Salt's `salt/fileserver/gitfs.py` over `salt/utils/gitfs.py`), through
 * the `git` program: each remote is fetched into a bare repository under
 * `<cachedir>/gitfs/<remote>/repo.git`; every branch and tag becomes a saltenv (the `base`
 * branch, `master` by default, is `base`), its tree written out once per tree id under
 * `trees/<tree>/`, and `envs.json` maps saltenvs to trees. Serving reads only those files, so
 * the request server never runs git; the update process (every `gitfs_update_interval`) and
 * `salt-run fileserver.update` fetch. A remote that cannot be fetched is logged with its code
 * and keeps serving what it last fetched; the other remotes and backends are not affected.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { FileServerBackend, FileServerBackendDef, FileServerLog, ServedRoot } from './backend-kind.js';
import { SALT_ERR_GITFS_REMOTE } from './errors.js';
import { exportTree, git } from './git.js';
import { type GitRemote, parseRemotes } from './gitfs-remotes.js';
import type { FileServerOptions } from './options.js';

type EnvTrees = Record<string, string>;

const LOCK_STALE_MS = 5 * 60_000;

async function withLock<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const lock = join(dir, '.update.lock');
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const st = await stat(lock).catch(() => undefined);
      if (st && Date.now() - st.mtimeMs > LOCK_STALE_MS) await rm(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`another update holds ${lock}`);
      else await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

class GitfsBackend implements FileServerBackend {
  private readonly remotes: GitRemote[];
  private readonly top: string;
  private readonly cache = new Map<string, { mtimeMs: number; envs: EnvTrees }>();

  constructor(
    opts: FileServerOptions,
    private readonly log: FileServerLog,
  ) {
    this.remotes = parseRemotes(opts);
    this.top = join(opts.cachedir, 'gitfs');
  }

  private dirOf(remote: GitRemote): string {
    return join(this.top, remote.id);
  }

  private async envTrees(remote: GitRemote): Promise<EnvTrees> {
    const file = join(this.dirOf(remote), 'envs.json');
    const st = await stat(file).catch(() => undefined);
    if (!st) return {};
    const hit = this.cache.get(remote.id);
    if (hit && hit.mtimeMs === st.mtimeMs) return hit.envs;
    try {
      const envs = JSON.parse(await readFile(file, 'utf8')) as EnvTrees;
      this.cache.set(remote.id, { mtimeMs: st.mtimeMs, envs });
      return envs;
    } catch {
      return {};
    }
  }

  async envs(): Promise<string[]> {
    const all = new Set<string>();
    for (const r of this.remotes) for (const e of Object.keys(await this.envTrees(r))) all.add(e);
    return [...all].sort();
  }

  async roots(saltenv: string): Promise<ServedRoot[]> {
    const out: ServedRoot[] = [];
    for (const r of this.remotes) {
      const tree = (await this.envTrees(r))[saltenv];
      if (tree && /^[0-9a-f]{40,64}$/.test(tree)) {
        out.push({ dir: posix.join(this.dirOf(r), 'trees', tree, r.root), mount: r.mountpoint });
      }
    }
    return out;
  }

  /** Fetches one remote and writes out the trees of its branches and tags. */
  private async updateRemote(remote: GitRemote): Promise<boolean> {
    const dir = this.dirOf(remote);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return withLock(dir, async () => {
      const gitDir = join(dir, 'repo.git');
      if (!(await stat(gitDir).catch(() => undefined))) await git(['init', '--quiet', '--bare', gitDir]);
      try {
        await git(
          [
            '--git-dir',
            gitDir,
            'fetch',
            '--quiet',
            '--prune',
            '--force',
            remote.url,
            '+refs/heads/*:refs/heads/*',
            '+refs/tags/*:refs/tags/*',
          ],
          { timeoutMs: 120_000 },
        );
      } catch (err) {
        const e = new SALT_ERR_GITFS_REMOTE(
          remote.url,
          `fetch failed, serving what was last fetched: ${(err as Error).message}`,
        );
        this.log.error({ code: e.code }, e.message);
        return false;
      }
      const refs = (
        await git(['--git-dir', gitDir, 'for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/tags'])
      ).stdout
        .toString('utf8')
        .split('\n')
        .filter(Boolean);
      const envs: EnvTrees = {};
      if (refs.length > 0) {
        const trees = (
          await git(['--git-dir', gitDir, 'rev-parse', ...refs.map((r) => `${r}^{tree}`)])
        ).stdout
          .toString('utf8')
          .split('\n')
          .filter(Boolean);
        refs.forEach((ref, i) => {
          const tree = trees[i];
          if (!tree) return;
          const name = ref.startsWith('refs/heads/') ? ref.slice(11) : ref.slice(10);
          const env = ref.startsWith('refs/heads/') && name === remote.base ? 'base' : name;
          // a branch wins over a tag of the same name
          if (!(env in envs) || ref.startsWith('refs/heads/')) envs[env] = tree;
        });
      }
      const treesDir = join(dir, 'trees');
      await mkdir(treesDir, { recursive: true });
      for (const tree of new Set(Object.values(envs))) {
        const dest = join(treesDir, tree);
        if (await stat(dest).catch(() => undefined)) continue;
        const tmp = `${dest}.tmp-${process.pid}`;
        await rm(tmp, { recursive: true, force: true });
        await mkdir(tmp);
        await exportTree(gitDir, tree, tmp);
        await rename(tmp, dest);
      }
      const tmpEnvs = join(dir, `envs.json.tmp-${process.pid}`);
      await writeFile(tmpEnvs, JSON.stringify(envs));
      await rename(tmpEnvs, join(dir, 'envs.json'));
      const keep = new Set(Object.values(envs));
      for (const name of await readdir(treesDir)) {
        if (!keep.has(name)) await rm(join(treesDir, name), { recursive: true, force: true });
      }
      return true;
    });
  }

  async update(): Promise<Record<string, boolean>> {
    const out: Record<string, boolean> = {};
    for (const r of this.remotes) {
      try {
        out[r.url] = await this.updateRemote(r);
      } catch (err) {
        const e = new SALT_ERR_GITFS_REMOTE(r.url, (err as Error).message);
        this.log.error({ code: e.code }, e.message);
        out[r.url] = false;
      }
    }
    return out;
  }

  async clearCache(): Promise<string[]> {
    const gone = await stat(this.top).catch(() => undefined);
    await rm(this.top, { recursive: true, force: true });
    this.cache.clear();
    return gone ? [this.top] : [];
  }
}

export const gitfsBackend: FileServerBackendDef = {
  name: 'gitfs',
  aliases: ['git'],
  create: (opts, log) => new GitfsBackend(opts, log),
};
