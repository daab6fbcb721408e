/**
 * Checking out git_pillar remotes for one compile (Salt's `GitPillar.checkout`): each remote's
 * branch or tag (`__env__` follows the minion's pillarenv or saltenv, else `git_pillar_base`),
 * written out as files once per tree, with `root` as the top folder and `mountpoint` as a
 * prefix; a remote never fetched, or lacking the ref, is fetched once first. A remote whose ref
 * or root is missing is logged and left out.
 */
import type { PillarLog } from '../pillar-log.js';
import { fetchRemote, mayFetchAgain, mirrorOf } from './fetch.js';
import type { GitPillarOptions } from './options.js';
import { checkoutTarget, type GitPillarRemote, remoteEnv } from './remotes.js';

/** A checked-out remote: its files, its pillarenv, and whether it is mounted into others. */
export interface PillarDir {
  dir: string;
  env: string;
  linked: boolean;
  remote: GitPillarRemote;
}

export interface CheckoutRequest {
  pillarenv: string | null;
  saltenv: string | null;
  /** A masterless minion fetches every remote first (no master keeps them fresh). */
  fetchFirst: boolean;
  log: PillarLog;
}

async function treeFor(r: GitPillarRemote, o: GitPillarOptions, target: string): Promise<string | undefined> {
  const mirror = mirrorOf(r, o);
  return (await mirror.treeOf(target)) ?? (r.fallback ? await mirror.treeOf(r.fallback) : undefined);
}

export async function checkoutRemotes(
  remotes: readonly GitPillarRemote[],
  o: GitPillarOptions,
  req: CheckoutRequest,
): Promise<PillarDir[]> {
  const out: PillarDir[] = [];
  for (const r of remotes) {
    const mirror = mirrorOf(r, o);
    const target = checkoutTarget(r, req.pillarenv, req.saltenv);
    if (req.fetchFirst) await fetchRemote(r, o, req.log);
    let tree = await treeFor(r, o, target);
    if (!tree && mayFetchAgain(r, o)) {
      await fetchRemote(r, o, req.log);
      tree = await treeFor(r, o, target);
    }
    if (!tree) {
      req.log.error(
        { remote: r.id },
        `Failed to checkout ${target} from git_pillar remote '${r.id}': remote ref does not exist`,
      );
      continue;
    }
    if (r.root && !(await mirror.hasDir(tree, r.root))) {
      req.log.error(
        { remote: r.id },
        `Root path '${r.root}' not present in git_pillar remote '${r.id}', skipping.`,
      );
      continue;
    }
    const dir = await mirror.checkout(tree, r.root, r.mountpoint);
    out.push({ dir, env: remoteEnv(r, req.pillarenv, req.saltenv), linked: r.mountpoint !== '', remote: r });
  }
  return out;
}
