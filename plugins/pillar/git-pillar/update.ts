/**
 * Keeping git_pillar remotes fresh (Salt's maintenance loop every `git_pillar_update_interval`
 * and the `git_pillar.update` runner): every remote of every `git` entry of `ext_pillar`,
 * fetched one after the other; each answer is `true` (new commits), `null` (none) or `false`
 * (an error, logged).
 */
import { isMapping } from '../../../modules/_traverse.js';
import type { PillarLog } from '../pillar-log.js';
import { fetchRemote } from './fetch.js';
import { type GitPillarOptions, gitPillarOptions } from './options.js';
import { type GitPillarRemote, parseGitPillarRemotes } from './remotes.js';

/** The remotes of every `git` entry of the config's `ext_pillar` (malformed ones throw PILLAR_ERR_GIT_REMOTE). */
export function configuredGitRemotes(config: Readonly<Record<string, unknown>>): {
  options: GitPillarOptions;
  remotes: GitPillarRemote[];
} {
  const options = gitPillarOptions(config);
  const extra = (config.extra ?? {}) as Readonly<Record<string, unknown>>;
  const ext = config.ext_pillar ?? extra.ext_pillar;
  const remotes: GitPillarRemote[] = [];
  for (const entry of Array.isArray(ext) ? ext : []) {
    if (!isMapping(entry) || !('git' in entry)) continue;
    const repos = entry.git;
    remotes.push(...parseGitPillarRemotes(Array.isArray(repos) ? repos : [repos], options));
  }
  return { options, remotes };
}

/** Whether the config has any `git` ext_pillar. */
export function hasGitPillar(config: Readonly<Record<string, unknown>>): boolean {
  const extra = (config.extra ?? {}) as Readonly<Record<string, unknown>>;
  const ext = config.ext_pillar ?? extra.ext_pillar;
  return Array.isArray(ext) && ext.some((e) => isMapping(e) && 'git' in e);
}

/** Fetches the remotes (only those of `branch` and/or whose URL or name is `repo`, when given). */
export async function updateGitPillar(
  config: Readonly<Record<string, unknown>>,
  log: PillarLog,
  filter: { branch?: string; repo?: string } = {},
): Promise<Record<string, boolean | null>> {
  const { options, remotes } = configuredGitRemotes(config);
  const out: Record<string, boolean | null> = {};
  for (const r of remotes) {
    if (filter.branch !== undefined && filter.branch !== r.branch) continue;
    if (filter.repo !== undefined && filter.repo !== r.url && filter.repo !== r.name) continue;
    out[r.id] = await fetchRemote(r, options, log);
  }
  return out;
}
