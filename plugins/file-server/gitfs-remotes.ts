/**
 * `gitfs_remotes` as Salt writes it (`salt/utils/gitfs.py` `GitBase.init_remotes`): a URL, or
 * a one-key mapping from the URL to a list of one-key mappings of per-remote options (`root`,
 * `mountpoint`, `base`, `name`), which override the global `gitfs_root`, `gitfs_mountpoint`,
 * `gitfs_base`. Mount points are given as `salt://path`.
 */
import { createHash } from 'node:crypto';
import { SALT_ERR_GITFS_REMOTE } from './errors.js';
import type { FileServerOptions } from './options.js';

export interface GitRemote {
  readonly url: string;
  /** Folder name under `<cachedir>/gitfs/`: a hash of the URL (and `name`). */
  readonly id: string;
  readonly root: string;
  readonly mountpoint: string;
  readonly base: string;
}

const PER_REMOTE = new Set(['root', 'mountpoint', 'base', 'name']);

function strip(path: string): string {
  return path.replace(/^salt:\/\//, '').replace(/^\/+|\/+$/g, '');
}

/** The remotes, each with its options; a malformed entry throws {@link SALT_ERR_GITFS_REMOTE}. */
export function parseRemotes(opts: FileServerOptions): GitRemote[] {
  const out: GitRemote[] = [];
  for (const entry of opts.gitfs_remotes) {
    let url: string;
    const params: Record<string, string> = {};
    if (typeof entry === 'string') url = entry;
    else {
      const keys = Object.keys(entry);
      const first = keys[0];
      if (keys.length !== 1 || first === undefined) {
        throw new SALT_ERR_GITFS_REMOTE(JSON.stringify(entry), 'expected one URL per entry');
      }
      url = first;
      const list = entry[first];
      if (!Array.isArray(list))
        throw new SALT_ERR_GITFS_REMOTE(url, 'per-remote options must be a list of mappings');
      for (const item of list) {
        if (!item || typeof item !== 'object')
          throw new SALT_ERR_GITFS_REMOTE(url, 'per-remote option is not a mapping');
        for (const [k, v] of Object.entries(item as Record<string, unknown>)) {
          if (!PER_REMOTE.has(k)) throw new SALT_ERR_GITFS_REMOTE(url, `unknown per-remote option "${k}"`);
          params[k] = String(v);
        }
      }
    }
    const id = createHash('sha256')
      .update(`${params.name ?? ''}\0${url}`)
      .digest('hex')
      .slice(0, 16);
    out.push({
      url,
      id,
      root: strip(params.root ?? opts.gitfs_root),
      mountpoint: strip(params.mountpoint ?? opts.gitfs_mountpoint),
      base: params.base ?? opts.gitfs_base,
    });
  }
  return out;
}
