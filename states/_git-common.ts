/**
 * Shared pieces of Salt's `git` state module (`salt/states/git.py`): how its returns are
 * worded (up-to-date, already cloned, failures with the changes already made) and how it
 * compares revisions.
 */
import { SaltError } from '../kernel/index.js';
import type { StateReturn } from '../plugins/states/index.js';

export type GitRet = StateReturn;

/** Joins action sentences: `a. b.` (a single one gets no final dot). */
export function formatComments(comments: readonly string[]): string {
  const s = comments.join('. ');
  return comments.length > 1 ? `${s}.` : s;
}

/** The git error without its `Command '...' failed: ` prefix (Salt's `_strip_exc`). */
export function stripExc(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.replace(/^Command ['"].+['"] failed: /s, '');
}

export const isExecError = (err: unknown): boolean =>
  err instanceof SaltError && (err.code === 'SALT_ERR_EXEC_COMMAND' || err.code === 'SALT_ERR_INVOCATION');

export const shortSha = (sha: string | null | undefined): string | null =>
  sha == null ? null : sha.slice(0, 7);

/** Salt's `_revs_equal`: a sha1 compares by prefix (rev2 is the short one). */
export function revsEqual(rev1: string | null, rev2: string | null, type: string | null): boolean {
  if (rev1 === null || rev2 === null) return rev1 === rev2;
  return type === 'sha1' ? rev1.startsWith(rev2) : rev1 === rev2;
}

export function fail(ret: GitRet, msg: string, comments: readonly string[] = []): GitRet {
  ret.result = false;
  ret.comment = comments.length > 0 ? `${msg}\n\nChanges already made: ${formatComments(comments)}` : msg;
  return ret;
}

/** Salt's `invalid_kwargs` failure for keywords a git state does not take (`__` ones aside), else null. */
export function invalidKwargs(ret: GitRet, extraKw: Record<string, unknown>): GitRet | null {
  const unknown = Object.keys(extraKw).filter((k) => !k.startsWith('__'));
  if (unknown.length === 0) return null;
  return fail(
    ret,
    `The following keyword arguments are not valid: ${unknown.map((k) => `${k}=${String(extraKw[k])}`).join(', ')}`,
  );
}

export function neutralTest(ret: GitRet, comment: string): GitRet {
  ret.result = null;
  ret.comment = comment;
  return ret;
}

export function uptodate(
  ret: GitRet,
  target: string,
  test: boolean,
  comments: readonly string[] = [],
  localChanges = false,
): GitRet {
  ret.comment = `Repository ${target} is up-to-date`;
  if (localChanges)
    ret.comment += ", but with uncommitted changes. Set 'force_reset' to True to purge uncommitted changes.";
  if (comments.length > 0)
    ret.comment += `\n\nChanges ${test ? 'that would be ' : ''}made: ${formatComments(comments)}`;
  return ret;
}

export function alreadyCloned(
  ret: GitRet,
  target: string,
  test: boolean,
  branch: string | null,
  comments: readonly string[] = [],
): GitRet {
  ret.result = true;
  ret.comment = `Repository already exists at ${target}${branch ? ` and is checked out to branch '${branch}'` : ''}`;
  if (comments.length > 0)
    ret.comment += `\n\nChanges ${test ? 'that would be ' : ''}made: ${formatComments(comments)}`;
  return ret;
}

/** Salt's `_not_fast_forward` failure, with its hints about branch names. */
export function notFastForward(
  ret: GitRet,
  o: {
    rev: string;
    pre: string | null;
    post: string | null;
    branch: string | null;
    localBranch: string | null;
    defaultBranch: string | null;
    localChanges: boolean;
  },
  comments: readonly string[],
): GitRet {
  let branchMsg = '';
  if (o.branch === null) {
    if (o.rev !== 'HEAD') {
      if (o.localBranch !== o.rev)
        branchMsg = ` The desired rev (${o.rev}) differs from the name of the local branch (${o.localBranch}), if the desired rev is a branch name then a forced update could possibly be avoided by setting the 'branch' argument to '${o.rev}' instead.`;
    } else if (o.defaultBranch !== null && o.localBranch !== o.defaultBranch) {
      const d = o.defaultBranch;
      branchMsg = ` The default remote branch (${d}) differs from the local branch (${o.localBranch}). This could be caused by changing the default remote branch, or if the local branch was manually changed. Rather than forcing an update, it may be advisable to set the 'branch' argument to '${d}' instead. To ensure that this state follows the '${d}' branch instead of the remote HEAD, set the 'rev' argument to '${d}'.`;
    }
  }
  const pre = shortSha(o.pre);
  const post = shortSha(o.post);
  const where = o.localChanges && pre !== post ? `from ${pre} to ${post}` : `to ${post}`;
  const after =
    o.branch !== null && o.branch !== o.localBranch ? ` (after checking out local branch '${o.branch}')` : '';
  const why = o.localChanges ? 'there are uncommitted changes' : 'this is not a fast-forward merge';
  return fail(
    ret,
    `Repository would be updated ${where}${after}, but ${why}. Set 'force_reset' to True${o.localChanges ? " (or 'remote-changes')" : ''} to force this update${o.localChanges ? ' and discard these changes' : ''}.${branchMsg}`,
    comments,
  );
}
