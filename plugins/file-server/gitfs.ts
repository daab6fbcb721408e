/**
 * The `gitfs` backend (Salt's `salt/fileserver/gitfs.py` over `salt/utils/gitfs.py`), through
 * the `git` program: each remote is fetched into a bare repository under
 * `<cachedir>/gitfs/<remote>/repo.git` (plugins/git, shared with git_pillar); every branch and
 * tag becomes a saltenv (the `base` branch, `master` by default, is `base`; per-saltenv `ref`
 * mappings in gitfs-envs.ts), its tree written out once per tree id under `trees/<tree>/`, and
 * `envs.json` maps saltenvs to trees. Credentials reach git only through its environment. Serving reads only those files, so
 * the request server never runs git; the update process (every `gitfs_update_interval`) and
 * `salt-run fileserver.update` fetch. A remote that cannot be fetched is logged with its code
 * and keeps serving what it last fetched; the other remotes and backends are not affected.
 */
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { authEnv, GitMirror, redactUrl, withLock } from '../git/index.js';
import type { FileServerBackend, FileServerBackendDef, FileServerLog, ServedRoot } from './backend-kind.js';
import { SALT_ERR_GITFS_REMOTE } from './errors.js';
import {
  type EnvTree,
  exposed,
  mappedEnvs,
  type RemoteEnvs,
  refForEnv,
  remoteEnvs,
  shaCandidates,
} from './gitfs-envs.js';
import { type GitRemote, parseRemotes } from './gitfs-remotes.js';
import type { FileServerOptions } from './options.js';

class GitfsBackend implements FileServerBackend {
  private readonly remotes: GitRemote[];
  private readonly top: string;
  private readonly cache = new Map<string, { mtimeMs: number; envs: RemoteEnvs }>();
  /** `<remote id>\0<commit>` → its tree, for `saltenv=<commit>`. */
  private readonly commits = new Map<string, string>();

  constructor(
    opts: FileServerOptions,
    private readonly log: FileServerLog,
  ) {
    this.remotes = parseRemotes(opts);
    this.top = join(opts.cachedir, 'gitfs');
  }

  private mirror(remote: GitRemote): GitMirror {
    return new GitMirror(join(this.top, remote.id));
  }

  private async envTrees(remote: GitRemote): Promise<RemoteEnvs> {
    const file = join(this.top, remote.id, 'envs.json');
    const st = await stat(file).catch(() => undefined);
    if (!st) return { envs: {} };
    const hit = this.cache.get(remote.id);
    if (hit && hit.mtimeMs === st.mtimeMs) return hit.envs;
    try {
      const envs = JSON.parse(await readFile(file, 'utf8')) as RemoteEnvs;
      if (!envs || typeof envs.envs !== 'object') return { envs: {} };
      this.cache.set(remote.id, { mtimeMs: st.mtimeMs, envs });
      return envs;
    } catch {
      return { envs: {} };
    }
  }

  async envs(): Promise<string[]> {
    const all = new Set<string>();
    for (const r of this.remotes) {
      for (const e of Object.keys((await this.envTrees(r)).envs)) all.add(e);
      for (const e of mappedEnvs(r)) all.add(e);
    }
    return [...all].sort();
  }

  async roots(saltenv: string): Promise<ServedRoot[]> {
    const out: ServedRoot[] = [];
    for (const r of this.remotes) {
      if (!exposed(r, saltenv)) continue;
      const data = await this.envTrees(r);
      const t = data.envs[saltenv] ?? data.all ?? (await this.commitEnv(r, saltenv));
      if (t && /^[0-9a-f]{40,64}$/.test(t.tree)) {
        out.push({ dir: posix.join(this.top, r.id, 'trees', t.tree, t.root), mount: t.mountpoint });
      }
    }
    return out;
  }

  /**
   * `saltenv=<commit>` with `sha` in the remote's `ref_types` (Salt's `get_tree_from_sha`): the
   * commit's tree, written out on first use (the one time git runs outside the update process;
   * an update may prune it, and the next request writes it again).
   */
  private async commitEnv(remote: GitRemote, saltenv: string): Promise<EnvTree | undefined> {
    if (!remote.refTypes.includes('sha') || !/^[0-9a-fA-F]{4,64}$/.test(saltenv)) return undefined;
    const ref = refForEnv(remote, saltenv);
    if (ref !== saltenv) return undefined;
    const key = `${remote.id}\0${saltenv}`;
    let tree = this.commits.get(key);
    if (!tree) {
      tree = await this.mirror(remote).treeOfCommit(saltenv);
      if (!tree) return undefined;
      this.commits.set(key, tree);
    }
    await this.mirror(remote).checkout(tree);
    return { tree, root: remote.root, mountpoint: remote.mountpoint };
  }

  /** Fetches one remote and writes out the trees of the saltenvs it serves. */
  private async updateRemote(remote: GitRemote): Promise<boolean> {
    const mirror = this.mirror(remote);
    const env: Record<string, string> = authEnv('gitfs', remote.url, remote.auth, join(this.top, '.helpers'));
    if (!remote.sslVerify) env.GIT_SSL_NO_VERIFY = 'true';
    try {
      await mirror.fetch(remote.url, env, { refspecs: remote.refspecs });
    } catch (err) {
      const e = new SALT_ERR_GITFS_REMOTE(
        redactUrl(remote.url),
        `fetch failed, serving what was last fetched: ${redactUrl((err as Error).message)}`,
      );
      this.log.error({ code: e.code }, e.message);
      return false;
    }
    return withLock(mirror.dir, async () => {
      const refs = await mirror.refs();
      const shaTrees = new Map<string, string>();
      for (const rev of shaCandidates(remote, refs)) {
        const tree = await mirror.treeOfCommit(rev);
        if (tree) shaTrees.set(rev, tree);
      }
      const envs = remoteEnvs(remote, refs, shaTrees);
      const trees = new Set(
        [...Object.values(envs.envs), ...(envs.all ? [envs.all] : [])].map((t) => t.tree),
      );
      for (const tree of trees) await mirror.checkout(tree);
      const tmpEnvs = join(mirror.dir, `envs.json.tmp-${process.pid}`);
      await writeFile(tmpEnvs, JSON.stringify(envs));
      await rename(tmpEnvs, join(mirror.dir, 'envs.json'));
      await mirror.pruneTrees(trees);
      return true;
    });
  }

  async fetchNew(): Promise<void> {
    for (const r of this.remotes) {
      if (await stat(join(this.top, r.id, 'envs.json')).catch(() => undefined)) continue;
      await this.updateRemote(r).catch((err: Error) =>
        this.log.error({ code: 'SALT_ERR_GITFS_REMOTE' }, redactUrl(err.message)),
      );
    }
  }

  /** Seconds between fetches, by remote id (per-remote `update_interval`). */
  updateIntervals(): Record<string, number> {
    return Object.fromEntries(this.remotes.map((r) => [r.id, r.updateInterval]));
  }

  async update(ids?: readonly string[]): Promise<Record<string, boolean>> {
    const out: Record<string, boolean> = {};
    for (const r of this.remotes) {
      if (ids && !ids.includes(r.id)) continue;
      try {
        out[redactUrl(r.url)] = await this.updateRemote(r);
      } catch (err) {
        const e = new SALT_ERR_GITFS_REMOTE(redactUrl(r.url), redactUrl((err as Error).message));
        this.log.error({ code: e.code }, e.message);
        out[redactUrl(r.url)] = false;
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
