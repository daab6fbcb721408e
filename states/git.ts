/**
 * Salt's `git` state module (`salt/states/git.py`): `git.latest` (a checkout that follows a
 * remote revision, in `_git-latest*.ts`), `git.present` (an initialised repository),
 * `git.cloned` (cloned once, on a branch), `git.detached` (HEAD detached at a tag, branch head or
 * commit, `_git-detached.ts`), `git.config_set` (a config value) and `git.config_unset`
 * (`_git-config-unset.ts`).
 */

import { existsSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pyRepr } from '../kernel/util.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { alreadyCloned, fail, formatComments, isExecError, neutralTest, stripExc } from './_git-common.js';
import { configUnset } from './_git-config-unset.js';
import { type DetachedArgs, detached } from './_git-detached.js';
import { type LatestArgs, latest } from './_git-latest.js';

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

async function present(
  ctx: StateContext,
  a: {
    name: string;
    force: boolean;
    bare: boolean;
    template?: string | null;
    separate_git_dir?: string | null;
    shared?: unknown;
    user?: string | null;
  },
): Promise<StateReturn> {
  const { name, bare } = a;
  const ret: StateReturn = { name, result: true, comment: '', changes: {} };
  const who = a.user ? { user: a.user } : {};
  const kind = bare ? 'bare ' : '';
  if (isDir(name)) {
    if (bare && existsSync(path.join(name, 'HEAD')) && statSync(path.join(name, 'HEAD')).isFile()) return ret;
    if (
      !bare &&
      (isDir(path.join(name, '.git')) || (await ctx.call('git.is_worktree', [name], who)) === true)
    )
      return ret;
    if (a.force) {
      if (ctx.test) {
        ret.changes.new = name;
        ret.changes['forced init'] = true;
        return neutralTest(
          ret,
          `Target directory ${name} exists. Since force=True, the contents of ${name} would be deleted, and a ${kind}repository would be initialized in its place.`,
        );
      }
      try {
        await rm(name, { recursive: true, force: true });
      } catch (err) {
        return fail(ret, `Unable to remove ${name}: ${String(err)}`);
      }
      ret.changes['forced init'] = true;
    } else if (readdirSync(name).length > 0) {
      return fail(
        ret,
        `Target '${name}' exists, is non-empty, and is not a git repository. Set the 'force' option to True to remove this directory's contents and proceed with initializing a repository`,
      );
    }
  }
  if (ctx.test) {
    ret.changes.new = name;
    return neutralTest(ret, `New ${kind}repository would be created`);
  }
  const kw: Record<string, unknown> = { ...who, bare };
  if (a.template) kw.template = a.template;
  if (a.separate_git_dir) kw.separate_git_dir = a.separate_git_dir;
  if (a.shared !== undefined && a.shared !== null) kw.shared = a.shared;
  await ctx.call('git.init', [name], kw);
  const actions = [`Initialized ${kind}repository in ${name}`];
  if (a.template) actions.push(`Template directory set to ${a.template}`);
  if (a.separate_git_dir) actions.push(`Gitdir set to ${a.separate_git_dir}`);
  ret.changes.new = name;
  ret.comment = formatComments(actions);
  return ret;
}

async function cloned(
  ctx: StateContext,
  a: {
    name: string;
    target?: unknown;
    branch?: unknown;
    user?: string | null;
    identity?: unknown;
    https_user?: string | null;
    https_pass?: string | null;
  },
): Promise<StateReturn> {
  const { name } = a;
  const ret: StateReturn = { name, result: false, comment: '', changes: {} };
  if (a.target === undefined || a.target === null)
    return { ...ret, comment: "'target' argument is required" };
  const target = String(a.target);
  if (!path.isAbsolute(target)) return { ...ret, comment: "'target' path must be absolute" };
  const branch = a.branch === undefined || a.branch === null ? null : String(a.branch);
  if (branch === '') return { ...ret, comment: "Invalid 'branch' argument" };
  const who: Record<string, unknown> = a.user ? { user: a.user } : {};
  let needClone = !existsSync(target);
  if (!needClone) {
    try {
      await ctx.call('git.status', [target], who);
    } catch (err) {
      return { ...ret, comment: err instanceof Error ? err.message : String(err) };
    }
  }
  const withBranch = branch !== null ? ` with branch '${branch}'` : '';
  if (needClone) {
    if (ctx.test) {
      ret.changes.new = `${name} => ${target}`;
      return neutralTest(ret, `${name} would be cloned to ${target}${withBranch}`);
    }
    const kw: Record<string, unknown> = { ...who, saltenv: ctx.saltenv };
    if (branch !== null) kw.opts = ['--branch', branch];
    if (a.identity !== undefined && a.identity !== null) kw.identity = a.identity;
    if (a.https_user) kw.https_user = a.https_user;
    if (a.https_pass) kw.https_pass = a.https_pass;
    try {
      await ctx.call('git.clone', [target, name], kw);
    } catch (err) {
      if (!isExecError(err)) throw err;
      return fail(ret, `Clone failed: ${stripExc(err)}`);
    }
    ret.changes.new = `${name} => ${target}`;
    return { ...ret, result: true, comment: `${name} cloned to ${target}${withBranch}` };
  }
  needClone = false;
  if (branch === null) return alreadyCloned(ret, target, ctx.test, null);
  const current = String(await ctx.call('git.current_branch', [target], who));
  if (current === branch) return alreadyCloned(ret, target, ctx.test, branch);
  if (ctx.test) {
    ret.changes.branch = { old: current, new: branch };
    return neutralTest(ret, `Branch would be changed to '${branch}'`);
  }
  let checkoutRev = branch;
  let opts: string[] | undefined;
  try {
    await ctx.call('git.rev_parse', [target], { ...who, rev: branch, ignore_retcode: true });
  } catch {
    checkoutRev = `origin/${branch}`;
    opts = ['-b', branch];
  }
  try {
    await ctx.call('git.checkout', [target], { ...who, rev: checkoutRev, ...(opts ? { opts } : {}) });
  } catch (err) {
    if (!isExecError(err)) throw err;
    return fail(
      ret,
      `Failed to change branch to '${branch}': ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  ret.changes.branch = { old: current, new: branch };
  return { ...ret, result: true, comment: `Branch changed to '${branch}'` };
}

async function configSet(
  ctx: StateContext,
  a: { name: string; value?: unknown; multivar?: unknown; repo?: string | null; user?: string | null },
  kw: Record<string, unknown>,
): Promise<StateReturn> {
  const name = String(a.name);
  const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
  const has = (v: unknown) => v !== undefined && v !== null;
  if (has(a.value) && has(a.multivar)) return fail(ret, "Only one of 'value' and 'multivar' is permitted");
  const global = kw.global === true;
  if (!global && !a.repo) return fail(ret, "Non-global config options require the 'repo' argument to be set");
  let valueComment = '';
  let desired: string[] = [];
  let multivar: string[] | undefined;
  if (has(a.value)) {
    const v = typeof a.value === 'string' ? a.value : pyStrOf(a.value);
    valueComment = `'${v}'`;
    desired = [v];
  }
  if (has(a.multivar)) {
    multivar = Array.isArray(a.multivar) ? a.multivar.map(pyStrOf) : String(a.multivar).split(',');
    valueComment = pyRepr(multivar);
    desired = multivar;
  }
  const who: Record<string, unknown> = a.user ? { user: a.user } : {};
  const g = global ? 'Global key ' : '';
  const pre = (await ctx.call('git.config_get', [], {
    ...who,
    cwd: a.repo,
    key: name,
    ignore_retcode: true,
    all: true,
    global,
  })) as string[] | null;
  if (pre !== null && JSON.stringify(pre) === JSON.stringify(desired))
    return { ...ret, comment: `${g}'${name}' is already set to ${valueComment}` };
  const verb = pre === null ? 'added as' : 'set to';
  if (ctx.test) {
    ret.changes = { old: pre, new: desired };
    return neutralTest(ret, `${g}'${name}' would be ${verb} ${valueComment}`);
  }
  let post: unknown;
  try {
    post = await ctx.call('git.config_set', [], {
      ...who,
      cwd: a.repo,
      key: name,
      ...(has(a.value) ? { value: desired[0] } : { multivar }),
      global,
    });
  } catch (err) {
    if (!isExecError(err)) throw err;
    return fail(
      ret,
      `Failed to set ${global ? 'global key ' : ''}'${name}' to ${valueComment}: ${stripExc(err)}`,
    );
  }
  if (JSON.stringify(pre) !== JSON.stringify(post)) ret.changes[name] = { old: pre, new: post };
  if (JSON.stringify(post) !== JSON.stringify(desired))
    return fail(ret, `Failed to set ${global ? 'global key ' : ''}'${name}' to ${valueComment}`);
  return { ...ret, comment: `${g}'${name}' was ${verb} ${valueComment}` };
}

const pyStrOf = (v: unknown): string => (v === true ? 'True' : v === false ? 'False' : String(v));

export default defineStateModule({
  name: 'git',
  doc: 'States to manage git repositories and git configuration.',
  functions: {
    latest: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          target: z.unknown(), // required, as Salt's (None still reaches the "is required" check)
          rev: z.unknown().default('HEAD'),
          branch: z.unknown().optional(),
          user: z.string().nullish(),
          password: z.string().nullish(),
          update_head: z.boolean().default(true),
          force_checkout: z.boolean().default(false),
          force_clone: z.boolean().default(false),
          force_fetch: z.boolean().default(false),
          force_reset: z.unknown().default(false),
          submodules: z.boolean().default(false),
          bare: z.boolean().default(false),
          mirror: z.boolean().default(false),
          remote: z.unknown().default('origin'),
          fetch_tags: z.boolean().default(true),
          sync_tags: z.boolean().default(true),
          depth: z.unknown().optional(),
          identity: z.unknown().optional(),
          https_user: z.unknown().optional(),
          https_pass: z.unknown().optional(),
          refspec_branch: z.unknown().default('*'),
          refspec_tag: z.unknown().default('*'),
          output_encoding: z.string().nullish(),
        }),
      varkw: true,
      doc: 'Make sure the repository is cloned to the given directory and is up-to-date.',
      run: (ctx, a, extra) => latest(ctx, a as LatestArgs, extra.kwargs),
    }),
    detached: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          rev: z.unknown(), // required, as Salt's
          target: z.unknown(),
          remote: z.unknown().default('origin'),
          user: z.unknown().optional(),
          password: z.unknown().optional(),
          force_clone: z.boolean().default(false),
          force_checkout: z.boolean().default(false),
          fetch_remote: z.boolean().default(true),
          hard_reset: z.boolean().default(false),
          submodules: z.boolean().default(false),
          identity: z.unknown().optional(),
          https_user: z.unknown().optional(),
          https_pass: z.unknown().optional(),
          output_encoding: z.string().nullish(),
        }),
      varkw: true,
      doc: 'Make sure a repository is cloned to the given target directory and its HEAD is detached at rev (a tag, remote branch or commit id).',
      run: (ctx, a, extra) => detached(ctx, a as DetachedArgs, extra.kwargs),
    }),
    present: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          force: z.boolean().default(false),
          bare: z.boolean().default(true),
          template: z.string().nullish(),
          separate_git_dir: z.string().nullish(),
          shared: z.unknown().optional(),
          user: z.string().nullish(),
          password: z.string().nullish(),
          output_encoding: z.string().nullish(),
        }),
      doc: 'Ensure that a repository exists in the given directory (bare by default).',
      run: (ctx, a) => present(ctx, a),
    }),
    cloned: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          target: z.unknown(), // required, as Salt's (None still reaches the "is required" check)
          branch: z.unknown().optional(),
          user: z.string().nullish(),
          password: z.string().nullish(),
          identity: z.unknown().optional(),
          https_user: z.string().nullish(),
          https_pass: z.string().nullish(),
          output_encoding: z.string().nullish(),
        }),
      doc: 'Ensure that a repository has been cloned to the specified target directory (and is on branch, when given).',
      run: (ctx, a) => cloned(ctx, a),
    }),
    config_set: defineState({
      args: (z) =>
        z.object({
          name: z.unknown(),
          value: z.unknown().optional(),
          multivar: z.unknown().optional(),
          repo: z.string().nullish(),
          user: z.string().nullish(),
          password: z.string().nullish(),
          output_encoding: z.string().nullish(),
        }),
      varkw: true,
      doc: "Ensure that a config value is set to the desired value(s) (global=True for the user's config).",
      run: (ctx, a, extra) => configSet(ctx, { ...a, name: String(a.name) }, extra.kwargs),
    }),
    config_unset: defineState({
      args: (z) =>
        z.object({
          name: z.unknown(),
          value_regex: z.unknown().optional(),
          repo: z.string().nullish(),
          user: z.string().nullish(),
          password: z.string().nullish(),
          output_encoding: z.string().nullish(),
        }),
      varkw: true,
      doc: "Ensure that the named config key (a regex over the whole name) is not present (value_regex: only matching values; all=True: every value; global=True: the user's config).",
      run: (ctx, a, extra) => configUnset(ctx, a, extra.kwargs),
    }),
  },
});
