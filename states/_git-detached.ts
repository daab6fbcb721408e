/**
 * Salt's `git.detached` (`salt/states/git.py`): a checkout of `target` at a tag, a remote
 * branch's head or a commit id, with HEAD detached. Clones (`--no-checkout`) when `target` is
 * not a repository yet, points `remote` at `name`, fetches (not for a commit id already there,
 * nor with `fetch_remote: False`), optionally resets hard and updates submodules, and reports
 * HEAD's old and new commit ids. Comments and failures are Salt's, word for word.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StateContext } from '../plugins/states/index.js';
import { fail, formatComments, type GitRet, invalidKwargs, neutralTest, stripExc } from './_git-common.js';

export interface DetachedArgs {
  name: string;
  rev: unknown;
  target: unknown;
  remote: unknown;
  user: unknown;
  password: unknown;
  force_clone: boolean;
  force_checkout: boolean;
  fetch_remote: boolean;
  hard_reset: boolean;
  submodules: boolean;
  identity: unknown;
  https_user: unknown;
  https_pass: unknown;
  output_encoding: unknown;
}

const optStr = (v: unknown): string | null => (v === undefined || v === null ? null : String(v));

async function entries(p: string): Promise<string[] | null> {
  try {
    return (await stat(p)).isDirectory() ? await readdir(p) : null;
  } catch {
    return null;
  }
}

export async function detached(
  ctx: StateContext,
  a: DetachedArgs,
  extraKw: Record<string, unknown>,
): Promise<GitRet> {
  const name = a.name;
  const ret: GitRet = { name, result: true, comment: '', changes: {} };
  const invalid = invalidKwargs(ret, extraKw);
  if (invalid) return invalid;
  // Salt's own wording names `rev` in both messages
  if (!a.rev) return fail(ret, `'${optStr(a.rev) ?? 'None'}' is not a valid value for the 'rev' argument`);
  if (!a.target) return fail(ret, `'${String(a.rev)}' is not a valid value for the 'target' argument`);
  let rev = String(a.rev);
  const target = String(a.target);
  if (!path.isAbsolute(target)) return fail(ret, `Target '${target}' is not an absolute path`);
  const remote = optStr(a.remote) ?? 'origin';
  let identity: string[] | null = null;
  if (a.identity !== undefined && a.identity !== null) {
    if (typeof a.identity === 'string') identity = [a.identity];
    else if (Array.isArray(a.identity)) identity = a.identity.map(String);
    else return fail(ret, 'Identity must be either a list or a string');
    for (const id of identity)
      if (!id.includes('salt://') && !path.isAbsolute(id))
        return fail(ret, `Identity '${id}' is not an absolute path`);
  }
  if ((await stat(target).catch(() => null))?.isFile())
    return fail(ret, `Target '${target}' exists and is a regular file, cannot proceed`);
  const httpsUser = optStr(a.https_user);
  const httpsPass = optStr(a.https_pass);
  if ((httpsUser !== null || httpsPass !== null) && !/^https:/i.test(name))
    return fail(ret, 'Basic Auth only supported for HTTPS');

  const who: Record<string, unknown> = a.user ? { user: String(a.user) } : {};
  // each git function gets the credentials Salt hands it
  const https: Record<string, unknown> = {};
  if (httpsUser !== null) https.https_user = httpsUser;
  if (httpsPass !== null) https.https_pass = httpsPass;
  const keys: Record<string, unknown> = identity ? { identity } : {};
  const saltenv = { saltenv: ctx.saltenv };

  const isHash = rev.length <= 40 && /^[0-9a-fA-F]+$/.test(rev);
  if (isHash) rev = rev.toLowerCase();
  const comments: string[] = [];
  let hashHere = false;
  let localCommit: string | null = null;

  const isRepo =
    (await stat(path.join(target, '.git')).catch(() => null))?.isDirectory() ||
    (await ctx.call('git.is_worktree', [target], who)) === true;
  if (isRepo) {
    localCommit = await ctx
      .call('git.revision', [target], { ...who, ignore_retcode: true })
      .then((r) => String(r))
      .catch(() => null);
    if (isHash) {
      hashHere = await ctx.call('git.describe', [target, rev], { ...who, ignore_retcode: true }).then(
        () => true,
        () => false,
      );
    } else {
      const remotes = (await ctx.call('git.remotes', [target], { ...who, redact_auth: false })) as Record<
        string,
        { fetch?: string }
      >;
      const current = remotes[remote]?.fetch;
      if (current === undefined || !current.includes(name)) {
        if (ctx.test) return neutralTest(ret, `Remote ${remote} would be set to ${name}`);
        await ctx.call('git.remote_set', [target], { ...who, ...https, url: name, remote });
        comments.push(`Remote ${remote} updated from '${current ?? 'None'}' to '${name}'`);
      }
    }
  } else {
    const contents = await entries(target);
    if (contents !== null) {
      if (a.force_clone) {
        if (ctx.test)
          return neutralTest(
            ret,
            `Target directory ${target} exists. Since force_clone=True, the contents of ${target} would be deleted, and ${name} would be cloned into this directory.`,
          );
        const errors: string[] = [];
        for (const entry of contents) {
          await rm(path.join(target, entry), { recursive: true, force: true }).catch((err: Error) =>
            errors.push(`  ${path.join(target, entry)}\n    ${err.message}`),
          );
        }
        if (errors.length) return fail(ret, `Unable to remove\n${errors.join('\n')}`, comments);
        ret.changes['forced clone'] = true;
      } else if (contents.length > 0) {
        return fail(
          ret,
          `Target '${target}' exists, is non-empty and is not a git repository. Set the 'force_clone' option to True to remove this directory's contents and proceed with cloning the remote repository`,
        );
      }
    }
    if (ctx.test) return neutralTest(ret, `Repository ${name} would be cloned to ${target}`);
    try {
      const opts = ['--no-checkout', ...(remote !== 'origin' ? ['--origin', remote] : [])];
      await ctx.call('git.clone', [target, name], { ...who, ...keys, ...https, ...saltenv, opts });
      comments.push(`${name} cloned to ${target}`);
    } catch (err) {
      return fail(ret, stripExc(err), comments);
    }
  }

  if (!hashHere && a.fetch_remote !== false) {
    if (ctx.test) return neutralTest(ret, `Repository remote ${remote} would be fetched`);
    try {
      const fetched = await ctx.call('git.fetch', [target], {
        ...who,
        ...keys,
        ...saltenv,
        remote,
        force: true,
        refspecs: [`refs/heads/*:refs/remotes/${remote}/*`, '+refs/tags/*:refs/tags/*'],
      });
      if (fetched && typeof fetched === 'object' && Object.keys(fetched).length > 0)
        comments.push(`Remote ${remote} was fetched, resulting in updated refs`);
    } catch (err) {
      return fail(ret, `Fetch failed:\n\n${err instanceof Error ? err.message : String(err)}`, comments);
    }
  }

  let checkout = '';
  if (isHash) {
    if (!(await ctx.call('git.describe', [target, rev], who)))
      return fail(ret, `Revision '${rev}' does not exist`);
    checkout = rev;
  } else {
    let refs: Record<string, string>;
    try {
      refs = (await ctx.call('git.remote_refs', [target], {
        ...who,
        ...keys,
        ...https,
        ignore_retcode: false,
      })) as Record<string, string>;
    } catch (err) {
      return fail(ret, `Failed to list refs for ${remote}: ${stripExc(err)}`);
    }
    const hit = refs[`refs/remotes/${remote}/${rev}`] ?? refs[`refs/tags/${rev}`];
    if (hit === undefined) return fail(ret, `Revision '${rev}' does not exist`);
    checkout = hit;
  }

  if (a.hard_reset) {
    if (ctx.test) return neutralTest(ret, `Hard reset to HEAD would be performed on ${target}`);
    await ctx.call('git.reset', [target], { ...who, opts: ['--hard', 'HEAD'] });
    comments.push('Repository was reset to HEAD before checking out revision');
  }

  let newRev: string | null = null;
  if (checkout !== localCommit) {
    if (ctx.test) {
      ret.changes.HEAD = { old: localCommit, new: checkout };
      return neutralTest(ret, `Commit ID ${checkout} would be checked out at ${target}`);
    }
    await ctx.call('git.checkout', [target, checkout], { ...who, force: a.force_checkout });
    comments.push(`Commit ID ${checkout} was checked out at ${target}`);
    newRev = await ctx
      .call('git.revision', [], { ...who, cwd: target, ignore_retcode: true })
      .then((r) => String(r))
      .catch(() => null);
  }

  if (a.submodules) {
    await ctx.call('git.submodule', [target, 'update'], { ...who, ...keys, opts: ['--init', '--recursive'] });
    comments.push('Submodules were updated');
  }

  if (newRev !== null) ret.changes.HEAD = { old: localCommit, new: newRev };
  else comments.push('Already checked out at correct revision');
  ret.comment = formatComments(comments);
  return ret;
}
