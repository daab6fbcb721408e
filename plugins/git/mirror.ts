/**
 * A local mirror of one git remote, shared by gitfs and git_pillar (Salt's `GitProvider`
 * cachedir): a bare repository `<dir>/repo.git` fetched with every branch and tag, the tree
 * each ref points at, and trees written out as plain files under `<dir>/trees/<key>/` (once
 * per tree, sub-folder and prefix), which is all the servers ever read. Fetches of one mirror
 * are serialised by a lock folder (shared by processes; a stale one is taken over after 5 min).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { exportTree, git } from './git.js';
import { DEFAULT_REFSPECS, mirrorRefspecs } from './refspecs.js';

/** A branch or tag of the mirror and the tree it points at. */
export interface GitRef {
  kind: 'branch' | 'tag';
  name: string;
  tree: string;
}

/** How a mirror fetches: git's time limit and Salt's refspecs. */
export interface FetchOptions {
  timeoutMs?: number;
  refspecs?: readonly string[];
}

const LOCK_STALE_MS = 5 * 60_000;

/** Runs `work` holding the lock folder `<dir>/.update.lock`. */
export async function withLock<T>(dir: string, work: () => Promise<T>): Promise<T> {
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

export class GitMirror {
  readonly gitDir: string;
  readonly treesDir: string;

  constructor(readonly dir: string) {
    this.gitDir = join(dir, 'repo.git');
    this.treesDir = join(dir, 'trees');
  }

  /** True once a fetch has created the repository. */
  async exists(): Promise<boolean> {
    return Boolean(await stat(join(this.gitDir, 'HEAD')).catch(() => undefined));
  }

  /**
   * Fetches `url` with Salt's `refspecs` (every branch and tag by default; refspecs.ts), pruning
   * the refs gone, under the lock. Resolves to whether any ref changed; rejects with git's
   * (URL-redacted) message when the fetch fails.
   */
  async fetch(
    url: string,
    env: Readonly<Record<string, string>> = {},
    { timeoutMs = 120_000, refspecs = DEFAULT_REFSPECS }: FetchOptions = {},
  ): Promise<boolean> {
    const specs = mirrorRefspecs(refspecs);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    return withLock(this.dir, async () => {
      if (!(await this.exists())) await git(['init', '--quiet', '--bare', this.gitDir]);
      const before = await this.#refText();
      await git(['--git-dir', this.gitDir, 'fetch', '--quiet', '--prune', '--force', '--', url, ...specs], {
        timeoutMs,
        env,
      });
      return (await this.#refText()) !== before;
    });
  }

  async #refText(): Promise<string> {
    const out = await git(['--git-dir', this.gitDir, 'for-each-ref', '--format=%(objectname) %(refname)']);
    return out.stdout.toString('utf8');
  }

  /** Every branch and tag with its tree (a branch listed before a tag of the same name). */
  async refs(): Promise<GitRef[]> {
    if (!(await this.exists())) return [];
    const names = (
      await git(['--git-dir', this.gitDir, 'for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/tags'])
    ).stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean);
    if (names.length === 0) return [];
    const trees = (
      await git(['--git-dir', this.gitDir, 'rev-parse', ...names.map((r) => `${r}^{tree}`)])
    ).stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean);
    const out: GitRef[] = [];
    names.forEach((ref, i) => {
      const tree = trees[i];
      if (!tree) return;
      if (ref.startsWith('refs/heads/')) out.push({ kind: 'branch', name: ref.slice(11), tree });
      else out.push({ kind: 'tag', name: ref.slice(10), tree });
    });
    return out;
  }

  /** The tree of branch `name`, else of tag `name`, else undefined. */
  async treeOf(name: string): Promise<string | undefined> {
    const refs = await this.refs();
    return (refs.find((r) => r.kind === 'branch' && r.name === name) ?? refs.find((r) => r.name === name))
      ?.tree;
  }

  /**
   * The tree of a commit named by `rev` (a full or abbreviated SHA; Salt's `get_tree_from_sha`),
   * else undefined. Names that git could read as an option are refused.
   */
  async treeOfCommit(rev: string): Promise<string | undefined> {
    if (!rev || rev.startsWith('-') || !(await this.exists())) return undefined;
    try {
      const out = await git(['--git-dir', this.gitDir, 'rev-parse', '--verify', '--quiet', `${rev}^{tree}`]);
      return out.stdout.toString('utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** Whether `tree` has a folder at `path`. */
  async hasDir(tree: string, path: string): Promise<boolean> {
    if (!path) return true;
    try {
      const out = await git(['--git-dir', this.gitDir, 'cat-file', '-t', `${tree}:${path}`]);
      return out.stdout.toString('utf8').trim() === 'tree';
    } catch {
      return false;
    }
  }

  /** The folder name a written-out tree gets (`<tree>`, or `<tree>-<hash of path and prefix>`). */
  static treeKey(tree: string, path = '', prefix = ''): string {
    if (!path && !prefix) return tree;
    return `${tree}-${createHash('sha256').update(`${path}\0${prefix}`).digest('hex').slice(0, 12)}`;
  }

  /**
   * Writes out `tree` (its folder `path`, placed under `prefix/`) once, and returns the folder.
   * Concurrent callers each write a temporary copy; the first rename wins.
   */
  async checkout(tree: string, path = '', prefix = ''): Promise<string> {
    const dest = join(this.treesDir, GitMirror.treeKey(tree, path, prefix));
    if (await stat(dest).catch(() => undefined)) return dest;
    await mkdir(this.treesDir, { recursive: true });
    const tmp = `${dest}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    await mkdir(tmp);
    try {
      await exportTree(this.gitDir, tree, tmp, { path, prefix });
      await rename(tmp, dest).catch(async (err: NodeJS.ErrnoException) => {
        if (!(await stat(dest).catch(() => undefined))) throw err;
      });
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
    return dest;
  }

  /**
   * Removes the written-out trees (of any path and prefix) of trees not in `keep`, only those
   * written more than `minAgeMs` ago (a compile may still be reading a tree it just resolved).
   */
  async pruneTrees(keep: ReadonlySet<string>, minAgeMs = 0): Promise<void> {
    for (const name of await readdir(this.treesDir).catch(() => [] as string[])) {
      if (keep.has(name.split('-')[0]!) || name.includes('.tmp-')) continue;
      const path = join(this.treesDir, name);
      const st = await stat(path).catch(() => undefined);
      if (st && Date.now() - st.mtimeMs >= minAgeMs) await rm(path, { recursive: true, force: true });
    }
  }
}
