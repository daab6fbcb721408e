/**
 * `git.latest` on an existing checkout (Salt's update branch of `latest`): compare the local
 * and remote revisions, predict under test=True, else set the remote URL, fetch, check out
 * `branch`, fast-forward or hard-reset (`force_reset`), set the upstream and report `revision`.
 */
import {
  fail,
  formatComments,
  isExecError,
  neutralTest,
  notFastForward,
  revsEqual,
  shortSha,
  stripExc,
  uptodate,
} from './_git-common.js';
import { branchOpts, call, type LatestPlan, revParse } from './_git-latest-types.js';

type Ret = LatestPlan['ret'];

async function safe<T>(f: () => Promise<T>): Promise<T | null> {
  try {
    return await f();
  } catch {
    return null;
  }
}

export async function updateExisting(p: LatestPlan): Promise<Ret> {
  try {
    return await update(p);
  } catch (err) {
    p.ctx.log.error({ err: String(err) }, 'Unexpected exception in git.latest state');
    return fail(p.ret, stripExc(err), p.comments);
  }
}

async function update(p: LatestPlan): Promise<Ret> {
  const { ret, ctx, target, comments, remoteRev, remoteRevType, branch, rev } = p;
  const test = ctx.test;
  const who = p.who;
  const allLocalBranches = (await call(p, 'list_branches', [target], who)) as string[];
  const allLocalTags = new Set((await call(p, 'list_tags', [target], who)) as string[]);
  const localRev = await safe(async () =>
    String(await call(p, 'revision', [target], { ...who, ignore_retcode: true })),
  );
  const localBranch = await safe(async () =>
    String(await call(p, 'current_branch', [target], { ...who, ignore_retcode: true })),
  );
  if (remoteRev === null && localRev !== null)
    return fail(ret, 'Remote repository is empty, cannot update from a non-empty to an empty repository');
  let baseRev = localRev;
  let baseBranch = localBranch;
  const needBranchChange = branch !== null && branch !== localBranch;
  if (needBranchChange && branch !== null) {
    if (!allLocalBranches.includes(branch)) baseRev = remoteRev;
    else {
      baseBranch = branch;
      try {
        baseRev = String(
          await call(p, 'rev_parse', [target, `${branch}^{commit}`], { ...who, ignore_retcode: true }),
        );
      } catch (err) {
        return fail(ret, `Unable to get position of local branch '${branch}': ${stripExc(err)}`, comments);
      }
    }
  }
  const remotes = (await call(p, 'remotes', [target], { ...who, redact_auth: false })) as Record<
    string,
    { fetch?: string }
  >;
  const revsMatch = revsEqual(localRev, remoteRev, remoteRevType);
  let localChanges = false;
  try {
    localChanges = Boolean(await call(p, 'diff', [target, 'HEAD'], who));
  } catch {
    ctx.log.warn({ target }, `git.latest: Unable to determine if ${target} has local changes`);
  }
  if (localChanges && revsMatch) {
    if (p.forceReset === true) {
      const msg = `${target} is up-to-date, but with uncommitted changes. Since 'force_reset' is set to True, these local changes would be reset. To only reset when there are changes in the remote repository, set 'force_reset' to 'remote-changes'.`;
      if (test) {
        ret.changes['forced update'] = true;
        return neutralTest(ret, comments.length > 0 ? msg + formatComments(comments) : msg);
      }
    } else return uptodate(ret, target, test, comments, localChanges);
  }

  let hasRemoteRev = false;
  if (remoteRevType === 'sha1' && baseRev !== null && remoteRev !== null && baseRev.startsWith(remoteRev))
    hasRemoteRev = true;
  else if (remoteRev !== null && (await revParse(p, `${remoteRev}^{commit}`)) !== null) {
    if (remoteRevType === 'branch') {
      if (p.remote in remotes && (await revParse(p, String(p.desiredUpstream))) === remoteRev)
        hasRemoteRev = true;
    } else if (remoteRevType === 'tag') {
      if (allLocalTags.has(rev)) {
        const localTag = await revParse(p, `${rev}^{commit}`);
        if (localTag === remoteRev) hasRemoteRev = true;
        else if (!p.forceReset)
          return fail(
            ret,
            `'${rev}' is a tag, but the remote SHA1 for this tag (${shortSha(remoteRev)}) doesn't match the local SHA1 (${shortSha(localTag)}). Set 'force_reset' to True to force this update.`,
          );
      }
    } else if (remoteRevType === 'sha1') hasRemoteRev = true;
  }

  let fastForward: boolean | null = localChanges && p.forceReset !== 'remote-changes' ? false : null;
  if (hasRemoteRev) {
    if (!revsMatch && !p.updateHead && (branch === null || branch === localBranch)) {
      const loc = rev === 'HEAD' ? capitalize(String(p.remoteLoc)) : String(p.remoteLoc);
      ret.comment = `${loc} is already present and local HEAD (${String(localRev).slice(0, 7)}) does not match, but update_head=False. HEAD has not been updated locally.`;
      return ret;
    }
    if (fastForward !== false)
      fastForward =
        baseRev === null
          ? true
          : ((await call(p, 'merge_base', [target], {
              ...who,
              refs: [baseRev, remoteRev],
              is_ancestor: true,
              ignore_retcode: true,
            })) as boolean);
  }
  const nff = () =>
    notFastForward(
      ret,
      {
        rev,
        pre: baseRev,
        post: remoteRev,
        branch,
        localBranch,
        defaultBranch: p.defaultBranch,
        localChanges,
      },
      comments,
    );
  let mergeAction: string;
  if (fastForward === false) {
    if (p.forceReset === false) return nff();
    mergeAction = 'hard-reset';
  } else mergeAction = fastForward === true ? 'fast-forwarded' : 'updated';

  const upstream =
    baseBranch === null ? null : ((await revParse(p, `${baseBranch}@{upstream}`, ['--abbrev-ref'])) ?? false);
  const fetchUrl = remotes[p.remote]?.fetch ?? null;
  const redact = (s: string | null) =>
    s === null ? 'None' : s.replace(/(https?):\/\/.*@/gi, '$1://<redacted>@');
  const du = p.desiredUpstream;

  if (remoteRev !== null && p.name !== fetchUrl) {
    if (test) {
      const actions = [`Remote '${p.remote}' would be changed from ${redact(fetchUrl)} to ${redact(p.name)}`];
      if (!hasRemoteRev) actions.push('Remote would be fetched');
      if (!revsMatch && p.updateHead) {
        ret.changes.revision = { old: localRev, new: remoteRev };
        if (fastForward === false) ret.changes['forced update'] = true;
        actions.push(`Repository would be ${mergeAction} to ${shortSha(remoteRev)}`);
      }
      if (Object.keys(ret.changes).length > 0) return neutralTest(ret, formatComments(actions));
      if (!revsMatch && !p.updateHead) {
        ret.comment = formatComments(actions);
        return ret;
      }
      return uptodate(ret, target, test, actions);
    }
    await call(p, 'remote_set', [target], { ...who, url: p.name, remote: p.remote, ...httpsOf(p) });
    if (fetchUrl === null) {
      comments.push(`Remote '${p.remote}' set to ${redact(p.name)}`);
      ret.changes.new = `${p.name} => ${p.remote}`;
    } else comments.push(`Remote '${p.remote}' changed from ${redact(fetchUrl)} to ${redact(p.name)}`);
  }

  if (remoteRev !== null) {
    if (test)
      return predict(p, {
        hasRemoteRev,
        revsMatch,
        localRev,
        localBranch,
        allLocalBranches,
        mergeAction,
        fastForward,
        upstream,
      });
    let upstreamAction = '';
    let opts: string[] | null = null;
    if (!upstream && du) {
      upstreamAction = `Tracking branch was set to ${du}`;
      opts = branchOpts(branch, allLocalBranches, du);
    } else if (upstream && du === false) {
      upstreamAction = 'Tracking branch was unset';
      opts = ['--unset-upstream'];
    } else if (du && upstream !== du) {
      upstreamAction = `Tracking branch was updated to ${du}`;
      opts = branchOpts(branch, allLocalBranches, du);
    }
    if (opts !== null && localBranch === null)
      return fail(
        ret,
        "Cannot set/unset upstream tracking branch, local HEAD refers to nonexistent branch. This may have been caused by cloning a remote repository for which the default branch was renamed or deleted. If you are unable to fix the remote repository, you can work around this by setting the 'branch' argument (which will ensure that the named branch is created if it does not already exist).",
        comments,
      );
    const remoteTags = new Set(
      Object.keys(
        (await call(p, 'ls_remote', [], {
          ...p.auth,
          cwd: target,
          remote: p.remote,
          opts: '--tags',
          ignore_retcode: true,
        })) as Record<string, string>,
      )
        .filter((x) => !x.includes('^{}'))
        .map((x) => x.replace('refs/tags/', '')),
    );
    if (!sameSet(allLocalTags, remoteTags)) {
      hasRemoteRev = false;
      const newTags = [...remoteTags].filter((t) => !allLocalTags.has(t)).sort();
      const deleted = [...allLocalTags].filter((t) => !remoteTags.has(t));
      if (newTags.length > 0) ret.changes.new_tags = newTags;
      if (p.syncTags && deleted.length > 0) {
        const removed: string[] = [];
        for (const t of deleted) {
          try {
            await call(p, 'tag', [target, t], { ...who, opts: '-d' });
            removed.push(t);
          } catch {
            // Salt keeps a warning and goes on
          }
        }
        if (removed.length > 0) {
          ret.changes.deleted_tags = removed;
          comments.push(`The following tags were removed from the local checkout: ${removed.join(', ')}`);
        }
      }
    }
    if (!hasRemoteRev) {
      try {
        const fetched = await call(p, 'fetch', [target], {
          ...p.auth,
          remote: p.remote,
          force: p.forceFetch,
          refspecs: p.refspecs,
        });
        if (fetched && Object.keys(fetched as object).length > 0)
          comments.push(`${p.name} was fetched, resulting in updated refs`);
      } catch (err) {
        if (!isExecError(err)) throw err;
        return fail(
          ret,
          `Fetch failed. Set 'force_fetch' to True to force the fetch if the failure was due to not being able to fast-forward. Output of the fetch command follows:\n\n${stripExc(err)}`,
          comments,
        );
      }
      if ((await revParse(p, `${remoteRev}^{commit}`)) === null)
        return fail(ret, `Fetch did not successfully retrieve rev '${rev}' from ${p.name}`);
      if (!revsMatch && !p.updateHead && (branch === null || branch === localBranch)) {
        const loc = rev === 'HEAD' ? capitalize(String(p.remoteLoc)) : String(p.remoteLoc);
        ret.comment = `${loc} is already present and local HEAD (${String(localRev).slice(0, 7)}) does not match, but update_head=False. HEAD has not been updated locally.`;
        return ret;
      }
      fastForward =
        baseRev === null
          ? true
          : ((await call(p, 'merge_base', [target], {
              ...who,
              refs: [baseRev, remoteRev],
              is_ancestor: true,
            })) as boolean);
      if (
        (fastForward === false && p.forceReset === false) ||
        (fastForward === true && localChanges && p.forceReset === false)
      )
        return nff();
    }
    if (needBranchChange && branch !== null) {
      if (localChanges && !p.forceCheckout)
        return fail(
          ret,
          `Local branch '${localBranch}' has uncommitted changes. Set 'force_checkout' to True to discard them and proceed.`,
        );
      let checkoutRev: string;
      let checkoutOpts: string[] = [];
      if (!allLocalBranches.includes(branch)) {
        checkoutRev = rev === 'HEAD' ? remoteRev : du ? du : rev;
        checkoutOpts = ['-b', branch];
      } else checkoutRev = branch;
      await call(p, 'checkout', [target, checkoutRev], {
        ...who,
        force: p.forceCheckout,
        opts: checkoutOpts,
      });
      comments.push(
        checkoutOpts.length > 0
          ? `New branch '${branch}' was checked out, with ${p.remoteLoc} as a starting point`
          : `'${checkoutRev}' was checked out`,
      );
    }
    if (fastForward === false) {
      await call(p, 'reset', [target], { ...who, opts: ['--hard', remoteRev] });
      ret.changes['forced update'] = true;
      if (localChanges) comments.push('Uncommitted changes were discarded');
      comments.push(`Repository was hard-reset to ${p.remoteLoc}`);
    } else if (fastForward === true && localChanges && p.forceReset !== false) {
      await call(p, 'discard_local_changes', [target], who);
      comments.push('Uncommitted changes were discarded');
    }
    if (opts !== null) {
      await call(p, 'branch', [target], { ...who, opts });
      comments.push(upstreamAction);
    }
    if (fastForward === true && !revsEqual(baseRev, remoteRev, remoteRevType)) {
      if (du || rev === 'HEAD') {
        const onBranch = await safe(async () =>
          String(
            await call(p, 'symbolic_ref', [target, 'HEAD'], {
              ...who,
              opts: ['--quiet'],
              ignore_retcode: true,
            }),
          ),
        );
        if (!onBranch) return fail(ret, 'Unable to fast-forward, HEAD is detached', comments);
        await call(p, 'merge', [target], { ...who, rev: remoteRev, opts: ['--ff-only'] });
        comments.push(`Repository was fast-forwarded to ${p.remoteLoc}`);
      } else {
        await call(p, 'reset', [target], { ...who, opts: ['--hard', rev === 'HEAD' ? remoteRev : rev] });
        comments.push(`Repository was reset to ${rev} (fast-forward)`);
      }
    }
    if (p.submodules) {
      try {
        await call(p, 'submodule', [target, 'update'], { ...p.auth, opts: ['--init', '--recursive'] });
      } catch (err) {
        if (!isExecError(err)) throw err;
        return fail(ret, `Failed to update submodules: ${stripExc(err)}`, comments);
      }
    }
  }
  const newRev = await safe(async () =>
    String(await call(p, 'revision', [target], { ...who, ignore_retcode: true })),
  );
  if (!revsEqual(newRev, remoteRev, remoteRevType)) return fail(ret, 'Failed to update repository', comments);
  if (localRev !== newRev) {
    ret.comment = formatComments(comments);
    ret.changes.revision = { old: localRev, new: newRev };
    return ret;
  }
  return uptodate(ret, target, test, comments);
}

interface Seen {
  hasRemoteRev: boolean;
  revsMatch: boolean;
  localRev: string | null;
  localBranch: string | null;
  allLocalBranches: string[];
  mergeAction: string;
  fastForward: boolean | null;
  upstream: string | null | false;
}

/** test=True on an existing checkout with a known remote revision: what would be done. */
function predict(p: LatestPlan, s: Seen): Ret {
  const { ret, branch, remoteRev } = p;
  const actions: string[] = [];
  if (!s.hasRemoteRev) actions.push(`Remote '${p.remote}' would be fetched`);
  if (!s.revsMatch && (p.updateHead || (branch !== null && branch !== s.localBranch)))
    ret.changes.revision = { old: s.localRev, new: remoteRev };
  const du = p.desiredUpstream;
  if (branch !== null && branch !== s.localBranch) {
    if (!s.allLocalBranches.includes(branch)) {
      actions.push(`New branch '${branch}' would be checked out, with ${p.remoteLoc} as a starting point`);
      if (du) actions.push(`Tracking branch would be set to ${du}`);
    } else
      actions.push(`Branch '${branch}' would be checked out and ${s.mergeAction} to ${shortSha(remoteRev)}`);
  } else if (!s.revsMatch) {
    if (p.updateHead) {
      if (s.fastForward === true)
        actions.push(
          `Repository would be fast-forwarded from ${shortSha(s.localRev)} to ${shortSha(remoteRev)}`,
        );
      else
        actions.push(
          `Repository would be ${p.forceReset && s.hasRemoteRev ? 'hard-reset' : 'updated'} from ${shortSha(s.localRev)} to ${shortSha(remoteRev)}`,
        );
    } else
      actions.push(
        `Local HEAD (${String(s.localRev).slice(0, 7)}) does not match ${p.remoteLoc} but update_head=False, HEAD would not be updated locally`,
      );
  }
  if (!s.upstream && du) actions.push(`Tracking branch would be set to ${du}`);
  else if (s.upstream && du === false) actions.push('Tracking branch would be unset');
  else if (du && s.upstream !== du) actions.push(`Tracking branch would be updated to ${du}`);
  if (Object.keys(ret.changes).length > 0) return neutralTest(ret, formatComments(actions));
  const formatted = formatComments(actions);
  if (!s.revsMatch && !p.updateHead && formatted) {
    ret.comment = formatted;
    return ret;
  }
  return uptodate(ret, p.target, true, actions);
}

function httpsOf(p: LatestPlan): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (p.auth.https_user !== undefined) o.https_user = p.auth.https_user;
  if (p.auth.https_pass !== undefined) o.https_pass = p.auth.https_pass;
  return o;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
