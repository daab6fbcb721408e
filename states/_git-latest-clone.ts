/**
 * `git.latest` when the target is not a git checkout yet (Salt's clone branch of `latest`):
 * refuse a non-empty directory unless `force_clone`, clone, check out `branch`, reset to the
 * remote revision and set the upstream, then report `new` and `revision`.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fail, formatComments, isExecError, neutralTest, revsEqual, stripExc } from './_git-common.js';
import { branchOpts, call, type LatestPlan, revParse } from './_git-latest-types.js';

async function dirEntries(p: string): Promise<string[] | null> {
  try {
    if (!(await stat(p)).isDirectory()) return null;
    return await readdir(p);
  } catch {
    return null;
  }
}

async function localRevAndBranch(p: LatestPlan): Promise<[string | null, string | null]> {
  const get = async (fun: string) => {
    try {
      return String(await call(p, fun, [p.target], { ...p.who, ignore_retcode: true }));
    } catch {
      return null;
    }
  };
  return [await get('revision'), await get('current_branch')];
}

export async function cloneNew(p: LatestPlan): Promise<LatestPlan['ret']> {
  const { ret, ctx, name, target, comments } = p;
  const contents = await dirEntries(target);
  if (contents !== null) {
    if (p.forceClone) {
      if (ctx.test) {
        ret.changes['forced clone'] = true;
        ret.changes.new = `${name} => ${target}`;
        return neutralTest(
          ret,
          `Target directory ${target} exists. Since force_clone=True, the contents of ${target} would be deleted, and ${name} would be cloned into this directory.`,
        );
      }
      const errors: string[] = [];
      for (const entry of contents) {
        const full = path.join(target, entry);
        await rm(full, { recursive: true, force: true }).catch((err: Error) =>
          errors.push(`  ${full}\n    ${err.message}`),
        );
      }
      if (errors.length > 0) return fail(ret, `Unable to remove\n${errors.join('\n')}`, comments);
      ret.changes['forced clone'] = true;
    } else if (contents.length > 0) {
      return fail(
        ret,
        `Target '${target}' exists, is non-empty and is not a git repository. Set the 'force_clone' option to True to remove this directory's contents and proceed with cloning the remote repository`,
      );
    }
  }
  if (ctx.test) {
    ret.changes.new = `${name} => ${target}`;
    return neutralTest(ret, `Repository ${name} would be cloned to ${target}`);
  }
  let newRev: string | null = null;
  try {
    const opts: string[] = [];
    if (p.remote !== 'origin') opts.push('--origin', p.remote);
    if (p.depth !== null) opts.push('--depth', String(p.depth), '--branch', p.rev);
    try {
      await call(p, 'clone', [target, name], { ...p.auth, opts });
    } catch (err) {
      if (!isExecError(err)) throw err;
      return fail(ret, `Clone failed: ${stripExc(err)}`, comments);
    }
    ret.changes.new = `${name} => ${target}`;
    comments.push(`${name} cloned to ${target}`);
    if (!p.remoteRev) {
      if (p.rev !== 'HEAD')
        return fail(
          ret,
          `Repository was cloned but is empty, so ${p.remote}/${p.rev} cannot be checked out`,
          comments,
        );
    } else {
      if (
        p.remoteRevType === 'tag' &&
        !((await call(p, 'list_tags', [target], p.who)) as string[]).includes(p.rev)
      )
        return fail(ret, `Revision '${p.rev}' does not exist in clone`, comments);
      if (
        p.branch !== null &&
        !((await call(p, 'list_branches', [target], p.who)) as string[]).includes(p.branch)
      ) {
        const checkoutRev = p.rev === 'HEAD' ? p.remoteRev : p.desiredUpstream ? p.desiredUpstream : p.rev;
        await call(p, 'checkout', [target, checkoutRev], { ...p.who, opts: ['-b', p.branch] });
        comments.push(`Branch '${p.branch}' checked out, with ${p.remoteLoc} as a starting point`);
      }
      const [localRev, localBranch] = await localRevAndBranch(p);
      if (localBranch === null && !('HEAD' in p.allRemoteRefs))
        return fail(
          ret,
          "Remote HEAD refers to a ref that does not exist. This can happen when the default branch on the remote repository is renamed or deleted. If you are unable to fix the remote repository, you can work around this by setting the 'branch' argument (which will ensure that the named branch is created if it does not already exist).",
          comments,
        );
      if (!revsEqual(localRev, p.remoteRev, p.remoteRevType)) {
        await call(p, 'reset', [target], { ...p.who, opts: ['--hard', p.remoteRev] });
        comments.push(`Repository was reset to ${p.remoteLoc}`);
      }
      const upstream = await revParse(p, `${localBranch}@{upstream}`, ['--abbrev-ref']);
      let action = '';
      let opts: string[] | null = null;
      const du = p.desiredUpstream;
      if (!upstream && du) {
        action = `Tracking branch was set to ${du}`;
        opts = branchOpts(p.branch, (await call(p, 'list_branches', [target], p.who)) as string[], du);
      } else if (upstream && du === false) {
        action = 'Tracking branch was unset';
        opts = ['--unset-upstream'];
      } else if (du && upstream !== du) {
        action = `Tracking branch was updated to ${du}`;
        opts = branchOpts(p.branch, (await call(p, 'list_branches', [target], p.who)) as string[], du);
      }
      if (opts !== null) {
        await call(p, 'branch', [target], { ...p.who, opts });
        comments.push(action);
      }
    }
    if (p.submodules && p.remoteRev) {
      try {
        await call(p, 'submodule', [target, 'update'], { ...p.auth, opts: ['--init', '--recursive'] });
      } catch (err) {
        if (!isExecError(err)) throw err;
        return fail(ret, `Failed to update submodules: ${stripExc(err)}`, comments);
      }
    }
    try {
      newRev = String(await call(p, 'revision', [target], { ...p.who, ignore_retcode: true }));
    } catch {
      newRev = null;
    }
  } catch (err) {
    ctx.log.error({ err: String(err) }, 'Unexpected exception in git.latest state');
    return fail(ret, stripExc(err), comments);
  }
  ret.comment = formatComments(comments);
  if (newRev !== null) ret.changes.revision = { old: null, new: newRev };
  return ret;
}
