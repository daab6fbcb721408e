/**
 * What `git.latest` knows once it has read the remote (`states/_git-latest.ts`), handed to the
 * update path (`_git-latest-update.ts`) and the clone path (`_git-latest-clone.ts`).
 */
import type { StateContext } from '../plugins/states/index.js';
import type { GitRet } from './_git-common.js';

export interface LatestPlan {
  ctx: StateContext;
  ret: GitRet;
  name: string;
  target: string;
  rev: string;
  branch: string | null;
  remote: string;
  forceReset: boolean | 'remote-changes';
  forceCheckout: boolean;
  forceClone: boolean;
  forceFetch: boolean;
  updateHead: boolean;
  submodules: boolean;
  syncTags: boolean;
  depth: number | null;
  refspecs: string[];
  /** Keywords every git module call gets: user, identity, https_user/https_pass, saltenv. */
  auth: Record<string, unknown>;
  /** The user only (calls that take no identity). */
  who: Record<string, unknown>;
  allRemoteRefs: Record<string, string>;
  defaultBranch: string | null;
  remoteRev: string | null;
  remoteRevType: 'sha1' | 'branch' | 'tag' | null;
  /** `origin/main` for a branch, null for HEAD, false otherwise (Salt's three states). */
  desiredUpstream: string | null | false;
  remoteLoc: string | null;
  comments: string[];
}

export const call = (p: LatestPlan, fun: string, args: unknown[], kw: Record<string, unknown> = {}) =>
  p.ctx.call(`git.${fun}`, args, kw);

/** `git.rev_parse` that answers null instead of failing. */
export async function revParse(p: LatestPlan, rev: string, opts?: string[]): Promise<string | null> {
  try {
    return String(
      await call(p, 'rev_parse', [p.target, rev], {
        ...p.who,
        ignore_retcode: true,
        ...(opts ? { opts } : {}),
      }),
    );
  } catch {
    return null;
  }
}

/** The options for `git branch` that set the upstream (null: a new checkout sets it itself). */
export function branchOpts(
  branch: string | null,
  allLocal: readonly string[],
  desiredUpstream: string,
): string[] | null {
  if (branch !== null && !allLocal.includes(branch)) return null;
  return ['--set-upstream-to', desiredUpstream];
}
