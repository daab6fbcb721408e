/**
 * Salt's `git.latest` state (`salt/states/git.py`), first half: check the arguments, read the
 * remote's refs, work out which commit the remote `rev` names, then hand over to the update
 * path (an existing checkout) or the clone path. `bare`/`mirror` and Git LFS are not supported.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { StateContext } from '../plugins/states/index.js';
import { fail, type GitRet, invalidKwargs, stripExc } from './_git-common.js';
import { cloneNew } from './_git-latest-clone.js';
import type { LatestPlan } from './_git-latest-types.js';
import { updateExisting } from './_git-latest-update.js';

export type LatestArgs = {
  name: string;
  target?: unknown;
  rev: unknown;
  branch?: unknown;
  user?: string | null | undefined;
  update_head: boolean;
  force_checkout: boolean;
  force_clone: boolean;
  force_fetch: boolean;
  force_reset: unknown;
  submodules: boolean;
  bare: boolean;
  mirror: boolean;
  remote: unknown;
  fetch_tags: boolean;
  sync_tags: boolean;
  depth?: unknown;
  identity?: unknown;
  https_user?: unknown;
  https_pass?: unknown;
  refspec_branch: unknown;
  refspec_tag: unknown;
};

const optStr = (v: unknown): string | null => (v === undefined || v === null ? null : String(v));
const isHex = (s: string) => /^[0-9a-fA-F]+$/.test(s);

export async function latest(
  ctx: StateContext,
  a: LatestArgs,
  extraKw: Record<string, unknown>,
): Promise<GitRet> {
  const name = a.name;
  const ret: GitRet = { name, result: true, comment: '', changes: {} };
  const invalid = invalidKwargs(ret, extraKw);
  if (invalid) return invalid;
  if (!a.remote) return fail(ret, "'remote' argument is required");
  if (!a.target) return fail(ret, "'target' argument is required");
  if (!a.rev) return fail(ret, `'${String(a.rev)}' is not a valid value for the 'rev' argument`);
  const fr = a.force_reset;
  if (fr !== true && fr !== false && fr !== 'remote-changes')
    return fail(ret, "'force_reset' must be one of True, False, or 'remote-changes'");
  let rev = String(a.rev);
  const target = String(a.target);
  if (!path.isAbsolute(target)) return fail(ret, `target '${target}' is not an absolute path`);
  const remote = String(a.remote);
  let identity: string[] | null = null;
  if (a.identity !== undefined && a.identity !== null) {
    if (typeof a.identity === 'string') identity = [a.identity];
    else if (Array.isArray(a.identity)) identity = a.identity.map(String);
    else return fail(ret, 'identity must be either a list or a string');
    for (const id of identity)
      if (!id.includes('salt://') && !path.isAbsolute(id))
        return fail(ret, `identity '${id}' is not an absolute path`);
  }
  if (existsSync(target) && statSync(target).isFile())
    return fail(ret, `Target '${target}' exists and is a regular file, cannot proceed`);
  const httpsUser = optStr(a.https_user);
  const httpsPass = optStr(a.https_pass);
  if ((httpsUser !== null || httpsPass !== null) && !/^https:/i.test(name))
    return fail(ret, 'Basic Auth only supported for HTTPS');
  if (a.bare || a.mirror) return fail(ret, "tsalt's git.latest does not support 'bare' or 'mirror' yet");

  const who: Record<string, unknown> = a.user ? { user: a.user } : {};
  const auth: Record<string, unknown> = { ...who, saltenv: ctx.saltenv };
  if (identity) auth.identity = identity;
  if (httpsUser !== null) auth.https_user = httpsUser;
  if (httpsPass !== null) auth.https_pass = httpsPass;

  let allRemoteRefs: Record<string, string>;
  try {
    allRemoteRefs = (await ctx.call('git.remote_refs', [name], { ...auth, ignore_retcode: false })) as Record<
      string,
      string
    >;
  } catch (err) {
    return fail(ret, `Failed to check remote refs: ${stripExc(err)}`);
  }
  const headRev = allRemoteRefs.HEAD ?? null;
  let defaultBranch: string | null = null;
  if (headRev !== null) {
    const hit = Object.entries(allRemoteRefs).find(
      ([r, sha]) => r.startsWith('refs/heads/') && sha === headRev,
    );
    defaultBranch = hit ? hit[0].slice('refs/heads/'.length) : null;
  }
  let remoteRev: string | null = null;
  let remoteRevType: LatestPlan['remoteRevType'] = null;
  let desiredUpstream: string | null | false = false;
  if (rev === 'HEAD') {
    if (headRev !== null) {
      remoteRev = headRev;
      desiredUpstream = null;
      remoteRevType = 'sha1';
    }
  } else if (allRemoteRefs[`refs/heads/${rev}`] !== undefined) {
    remoteRev = allRemoteRefs[`refs/heads/${rev}`] as string;
    desiredUpstream = `${remote}/${rev}`;
    remoteRevType = 'branch';
  } else if (allRemoteRefs[`refs/tags/${rev}^{}`] !== undefined) {
    remoteRev = allRemoteRefs[`refs/tags/${rev}^{}`] as string;
    remoteRevType = 'tag';
  } else if (allRemoteRefs[`refs/tags/${rev}`] !== undefined) {
    remoteRev = allRemoteRefs[`refs/tags/${rev}`] as string;
    remoteRevType = 'tag';
  } else if (rev.length <= 40 && isHex(rev)) {
    rev = rev.toLowerCase();
    remoteRev = rev;
    remoteRevType = 'sha1';
  }
  let remoteLoc: string | null = null;
  if (remoteRevType === 'sha1' && remoteRev !== null)
    remoteLoc = rev === 'HEAD' ? `remote HEAD (${remoteRev.slice(0, 7)})` : remoteRev.slice(0, 7);
  else if (remoteRev !== null)
    remoteLoc = `${remoteRevType === 'branch' ? String(desiredUpstream) : rev} (${remoteRev.slice(0, 7)})`;

  const depth = a.depth === undefined || a.depth === null ? null : Number(a.depth);
  if (depth !== null && remoteRevType !== 'branch' && remoteRevType !== 'tag')
    return fail(
      ret,
      "When 'depth' is used, 'rev' must be set to the name of a branch or tag on the remote repository",
    );
  if (remoteRev === null && rev !== 'HEAD')
    return fail(ret, `No revision matching '${rev}' exists in the remote repository`);

  const p: LatestPlan = {
    ctx,
    ret,
    name,
    target,
    rev,
    branch: optStr(a.branch),
    remote,
    forceReset: fr,
    forceCheckout: a.force_checkout,
    forceClone: a.force_clone,
    forceFetch: a.force_fetch,
    updateHead: a.update_head,
    submodules: a.submodules,
    syncTags: a.sync_tags,
    depth,
    refspecs: a.fetch_tags
      ? [
          `refs/heads/${String(a.refspec_branch)}:refs/remotes/${remote}/${String(a.refspec_branch)}`,
          `+refs/tags/${String(a.refspec_tag)}:refs/tags/${String(a.refspec_tag)}`,
        ]
      : [],
    auth,
    who,
    allRemoteRefs,
    defaultBranch,
    remoteRev,
    remoteRevType,
    desiredUpstream,
    remoteLoc,
    comments: [],
  };
  const isRepo =
    (existsSync(path.join(target, '.git')) && statSync(path.join(target, '.git')).isDirectory()) ||
    (existsSync(target) && (await ctx.call('git.is_worktree', [target], who)) === true);
  return isRepo ? updateExisting(p) : cloneNew(p);
}
