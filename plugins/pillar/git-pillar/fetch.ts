/**
 * Fetching git_pillar remotes (Salt's `GitPillar.fetch_remotes` and the `git_pillar.update`
 * runner): each remote's mirror under `<cachedir>/git_pillar/<remote>/`, credentials through
 * git's environment only, errors logged with the URL's password masked.
 */
import { join } from 'node:path';
import { authEnv, GitMirror, redactUrl } from '../../git/index.js';
import type { PillarLog } from '../pillar-log.js';
import type { GitPillarOptions } from './options.js';
import type { GitPillarRemote } from './remotes.js';

export function mirrorOf(r: GitPillarRemote, o: GitPillarOptions): GitMirror {
  return new GitMirror(join(o.cachedir, 'git_pillar', r.dir));
}

/** When each mirror was last fetched by this process (fetch-on-fail is not retried sooner than 10 s). */
const lastFetch = new Map<string, number>();
const RETRY_MS = 10_000;

/** Whether a fetch-on-fail may run now for this remote. */
export function mayFetchAgain(r: GitPillarRemote, o: GitPillarOptions, now = Date.now()): boolean {
  return now - (lastFetch.get(mirrorOf(r, o).dir) ?? 0) >= RETRY_MS;
}

/**
 * Fetches one remote: true when refs changed, null when nothing new came, false on an error
 * (logged, as Salt's runner answers).
 */
export async function fetchRemote(
  r: GitPillarRemote,
  o: GitPillarOptions,
  log: PillarLog,
): Promise<boolean | null> {
  const mirror = mirrorOf(r, o);
  lastFetch.set(mirror.dir, Date.now());
  try {
    const env = authEnv('git_pillar', r.url, r.auth, join(o.cachedir, 'git_pillar', '.helpers'));
    if (!r.sslVerify) env.GIT_SSL_NO_VERIFY = 'true';
    const changed = await mirror.fetch(r.url, env, { refspecs: r.refspecs });
    // trees of refs gone or moved are dropped once no compile can still be reading them
    if (changed) await mirror.pruneTrees(new Set((await mirror.refs()).map((x) => x.tree)), 10 * 60_000);
    return changed ? true : null;
  } catch (err) {
    log.error(
      { code: 'PILLAR_ERR_GIT_REMOTE', remote: r.id },
      `Exception caught while fetching git_pillar remote '${r.id}': ${redactUrl((err as Error).message)}`,
    );
    return false;
  }
}
