/**
 * Functions of Salt's `git` module for linked worktrees (git-worktree(1)): list_worktrees,
 * worktree_add, worktree_prune, worktree_rm. Salt refuses them before git 2.5.0.
 * Merged into `modules/git.ts`.
 */
import { existsSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { common, cwdOf, lines, runOpts, stdout, withOpts } from './_git-args.js';
import { gitVersion, isWorktree } from './_git-query.js';
import { expandPath, formatOpts, gitRun } from './_git-run.js';
import { takeKwargs } from './_invalid-kwargs.js';
import { dottedVersionCmp } from './_version-cmp.js';

async function checkWorktreeSupport(ctx: ExecContext): Promise<void> {
  const v = await gitVersion(ctx);
  if (dottedVersionCmp(v, '2.5.0') < 0)
    throw new SALT_ERR_EXEC_COMMAND(
      `Worktrees are only supported in git 2.5.0 and newer (detected git version: ${v})`,
    );
}

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

/** One worktree as Salt's list_worktrees reports it. */
export interface WorktreeInfo {
  stale: boolean;
  HEAD: string;
  detached: boolean;
  branch: string | null;
  tags?: string[];
}

/** The `worktree`, `HEAD` and `branch` of each block of `git worktree list --porcelain`; incomplete blocks are left out. */
export function parseWorktreeList(
  out: string,
  log: ExecContext['log'],
): Array<{ worktree: string; HEAD: string; branch: string }> {
  const found: Array<{ worktree: string; HEAD: string; branch: string }> = [];
  for (const block of out.trim().split('\n\n')) {
    const data: Record<string, string> = { worktree: '', HEAD: '', branch: '' };
    for (const line of block.split('\n')) {
      const m = /^\s*(\S+)\s+(\S[\s\S]*?)\s*$/.exec(line);
      let type: string;
      let value: string;
      if (m) [, type, value] = m as unknown as [string, string, string];
      else if (line === 'detached') [type, value] = ['branch', 'detached'];
      else {
        log.warn({ line }, `git.worktree: Untracked line item '${line}'`);
        continue;
      }
      if (!(type in data)) {
        log.warn({ line }, `git.worktree: Untracked line item '${line}'`);
        continue;
      }
      if (data[type]) {
        log.error({ line }, `git.worktree: Unexpected duplicate ${type} entry '${line}', skipping`);
        continue;
      }
      data[type] = value;
    }
    const missing = Object.keys(data).filter((k) => !data[k]);
    if (missing.length > 0) {
      log.error(
        { block },
        `git.worktree: Incomplete worktree data, missing the following information: ${missing.join(', ')}`,
      );
      continue;
    }
    found.push(data as { worktree: string; HEAD: string; branch: string });
  }
  return found;
}

export const linkedWorktreeFunctions = {
  list_worktrees: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        stale: z.boolean().default(false),
        user: z.string().nullish(),
        password: z.string().nullish(),
        output_encoding: z.string().nullish(),
      }),
    varkw: true,
    doc: "Returns the checkout's worktrees (path → HEAD, branch, detached, stale, tags); stale=True: only stale ones, all=True: both.\n\nCLI Example: salt myminion git.list_worktrees /path/to/repo all=True",
    run: async (ctx, a, extra) => {
      await checkWorktreeSupport(ctx);
      const cwd = await expandPath(a.cwd, a.user);
      const all = pyTruthy(takeKwargs(extra.kwargs, ['all']).all);
      if (all && a.stale) throw new SALT_ERR_EXEC_COMMAND("'all' and 'stale' cannot both be set to True");
      const o = runOpts(a, cwd);
      const out = await gitRun(ctx, ['git', 'worktree', 'list', '--porcelain'], o);
      const ret: Record<string, WorktreeInfo> = {};
      for (const wt of parseWorktreeList(out.stdout, ctx.log)) {
        const stale = !isDir(wt.worktree);
        if (stale ? !all && !a.stale : a.stale) continue;
        if (wt.worktree in ret)
          ctx.log.error({ path: wt.worktree }, `git.worktree: Duplicate worktree path ${wt.worktree}`);
        const detached = wt.branch === 'detached';
        const info: WorktreeInfo = ret[wt.worktree] ?? ({} as WorktreeInfo);
        ret[wt.worktree] = info;
        info.stale = stale;
        info.HEAD = wt.HEAD;
        info.detached = detached;
        if (detached) {
          info.branch = null;
          const tags = lines(await stdout(ctx, ['git', 'tag', '--points-at', wt.HEAD], o));
          if (tags.length > 0) info.tags = tags;
        } else info.branch = wt.branch.replace('refs/heads/', '');
      }
      return ret;
    },
  }),
  worktree_add: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        worktree_path: cwdOf(z),
        ref: z.union([z.string(), z.number()]).transform(String).nullish(),
        reset_branch: z.unknown().optional(),
        force: z.unknown().optional(),
        detach: z.boolean().default(false),
        ...withOpts(z),
        ...common(z),
      }),
    varkw: true,
    doc: 'Interface to git-worktree(1): adds a worktree at worktree_path on a new branch (named after it unless branch= is given; reset_branch=True: -B), or detached.\n\nCLI Example: salt myminion git.worktree_add /path/to/repo /path/to/worktree branch=foo ref=origin/master',
    run: async (ctx, a, extra) => {
      await checkWorktreeSupport(ctx);
      const raw = takeKwargs(extra.kwargs, ['branch']).branch;
      let branch = raw === undefined || raw === null || raw === '' ? '' : String(raw);
      const cwd = await expandPath(a.cwd, a.user);
      if (branch && a.detach) throw new SALT_ERR_INVOCATION("Only one of 'branch' and 'detach' is allowed");
      const command = ['git', ...formatOpts(a.git_opts), 'worktree', 'add'];
      if (a.detach) {
        if (a.force) ctx.log.warn("'force' argument to git.worktree_add is ignored when detach=True");
        command.push('--detach');
      } else {
        if (!branch) branch = a.worktree_path.slice(a.worktree_path.lastIndexOf('/') + 1);
        command.push(a.reset_branch ? '-B' : '-b', branch);
        if (a.force) command.push('--force');
      }
      command.push(...formatOpts(a.opts), a.worktree_path);
      if (a.ref) command.push(a.ref);
      // git prints the checkout message on stderr
      return stdout(ctx, command, runOpts(a, cwd, { redirectStderr: true }));
    },
  }),
  worktree_prune: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        dry_run: z.boolean().default(false),
        verbose: z.boolean().default(true),
        expire: z.union([z.string(), z.number()]).transform(String).nullish(),
        ...withOpts(z),
        ...common(z),
      }),
    doc: 'Interface to git-worktree(1): prunes stale worktree administrative data (dry_run=True: only reports).\n\nCLI Example: salt myminion git.worktree_prune /path/to/repo expire=1.day.ago',
    run: async (ctx, a) => {
      await checkWorktreeSupport(ctx);
      const cwd = await expandPath(a.cwd, a.user);
      const command = ['git', ...formatOpts(a.git_opts), 'worktree', 'prune'];
      if (a.dry_run) command.push('--dry-run');
      if (a.verbose) command.push('--verbose');
      if (a.expire) command.push('--expire', a.expire);
      command.push(...formatOpts(a.opts));
      const r = await gitRun(ctx, command, runOpts(a, cwd));
      // git after 2.35.0 reports on stderr
      return dottedVersionCmp(await gitVersion(ctx), '2.35.0') > 0 ? r.stderr : r.stdout;
    },
  }),
  worktree_rm: defineFunction({
    args: (z) =>
      z.object({ cwd: cwdOf(z), user: z.string().nullish(), output_encoding: z.string().nullish() }),
    doc: 'Recursively removes the worktree at cwd (refused unless cwd is a linked worktree); returns True.\n\nCLI Example: salt myminion git.worktree_rm /path/to/worktree',
    run: async (ctx, a) => {
      await checkWorktreeSupport(ctx);
      const cwd = await expandPath(a.cwd, a.user);
      if (!existsSync(cwd)) throw new SALT_ERR_EXEC_COMMAND(`${cwd} does not exist`);
      if (!(await isWorktree(ctx, cwd, { output_encoding: a.output_encoding })))
        throw new SALT_ERR_EXEC_COMMAND(`${cwd} is not a git worktree`);
      try {
        await rm(cwd, { recursive: true, force: true });
      } catch (err) {
        throw new SALT_ERR_EXEC_COMMAND(`Unable to remove ${cwd}: ${String(err)}`);
      }
      return true;
    },
  }),
};
