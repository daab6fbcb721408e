/**
 * Functions of Salt's `git` module that make or change a working tree: init, checkout, status,
 * reset, merge, discard_local_changes, diff, is_worktree.
 * Merged into `modules/git.ts`.
 */
import { defineFunction, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { common, cwdOf, identity, runOpts, stdout, tail, who, withOpts } from './_git-args.js';
import { parseStatus } from './_git-parse.js';
import { isWorktree } from './_git-query.js';
import { expandPath, formatOpts } from './_git-run.js';
import { takeKwargs } from './_invalid-kwargs.js';

export const worktreeFunctions = {
  init: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        bare: z.boolean().default(false),
        template: z.string().nullish(),
        separate_git_dir: z.string().nullish(),
        shared: z.unknown().optional(),
        ...withOpts(z),
        ...common(z),
      }),
    doc: 'Interface to git-init(1)\n\nCLI Example: salt myminion git.init /path/to/repo/.git bare=True',
    run: async (ctx, a) => {
      const cwd = await expandPath(a.cwd, a.user);
      const command = ['git', ...formatOpts(a.git_opts), 'init'];
      if (a.bare) command.push('--bare');
      if (a.template) command.push(`--template=${a.template}`);
      if (a.separate_git_dir) command.push(`--separate-git-dir=${a.separate_git_dir}`);
      if (a.shared !== undefined && a.shared !== null) {
        const s = a.shared;
        command.push(
          `--shared=${typeof s === 'number' ? `0${s}` : typeof s === 'string' ? s : String(s).toLowerCase()}`,
        );
      }
      command.push(...formatOpts(a.opts), cwd);
      return stdout(ctx, command, runOpts(a, null));
    },
  }),
  checkout: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        rev: z.string().nullish(),
        force: z.boolean().default(false),
        ...withOpts(z),
        ...common(z),
      }),
    doc: 'Interface to git-checkout(1)\n\nCLI Example: salt myminion git.checkout /path/to/repo somebranch user=jeff',
    run: async (ctx, a) => {
      const command = ['git', ...formatOpts(a.git_opts), 'checkout'];
      if (a.force) command.push('--force');
      const opts = formatOpts(a.opts);
      command.push(...opts);
      if (a.rev === undefined || a.rev === null) {
        if (!opts.includes('-b') && !opts.includes('-B'))
          throw new SALT_ERR_INVOCATION("'rev' argument is required unless -b or -B in opts");
      } else command.push(a.rev);
      return stdout(ctx, command, runOpts(a, await expandPath(a.cwd, a.user), { redirectStderr: true }));
    },
  }),
  status: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), ...common(z) }),
    doc: 'Returns the changes to the repository (modified, new, deleted, untracked files).\n\nCLI Example: salt myminion git.status /path/to/repo',
    run: async (ctx, a) =>
      parseStatus(
        await stdout(
          ctx,
          ['git', 'status', '-z', '--porcelain'],
          runOpts(a, await expandPath(a.cwd, a.user)),
        ),
      ),
  }),
  reset: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), ...withOpts(z), ...who(z), ...identity(z), ...tail(z) }),
    doc: "Interface to git-reset(1), returns the stdout from the git command\n\nCLI Example: salt myminion git.reset /path/to/repo opts='--hard origin/master'",
    run: async (ctx, a) =>
      stdout(
        ctx,
        ['git', ...formatOpts(a.git_opts), 'reset', ...formatOpts(a.opts)],
        runOpts(a, await expandPath(a.cwd, a.user), { identity: a.identity }),
      ),
  }),
  merge: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        rev: z.string().nullish(),
        ...withOpts(z),
        ...who(z),
        ...identity(z),
        ...tail(z),
      }),
    varkw: true,
    doc: 'Interface to git-merge(1)\n\nCLI Example: salt myminion git.merge /path/to/repo rev=upstream/foo',
    run: async (ctx, a, extra) => {
      takeKwargs(extra.kwargs);
      return stdout(
        ctx,
        ['git', ...formatOpts(a.git_opts), 'merge', ...formatOpts(a.opts), ...(a.rev ? [a.rev] : [])],
        runOpts(a, await expandPath(a.cwd, a.user), { identity: a.identity }),
      );
    },
  }),
  discard_local_changes: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), path: z.string().default('.'), ...common(z) }),
    doc: 'Runs a git checkout -- <path> from the directory specified by cwd.\n\nCLI Example: salt myminion git.discard_local_changes /path/to/repo',
    run: async (ctx, a) =>
      stdout(
        ctx,
        ['git', 'checkout', '--', a.path],
        runOpts(a, await expandPath(a.cwd, a.user), { redirectStderr: true }),
      ),
  }),
  diff: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        item1: z.string().nullish(),
        item2: z.string().nullish(),
        ...withOpts(z),
        user: z.string().nullish(),
        password: z.string().nullish(),
        no_index: z.boolean().default(false),
        cached: z.boolean().default(false),
        paths: z.unknown().optional(),
        output_encoding: z.string().nullish(),
      }),
    doc: 'Interface to git-diff(1)\n\nCLI Example: salt myminion git.diff /path/to/repo HEAD',
    run: async (ctx, a) => {
      if (a.no_index && a.cached)
        throw new SALT_ERR_EXEC_COMMAND("The 'no_index' and 'cached' options cannot be used together");
      const command = ['git', ...formatOpts(a.git_opts), 'diff', ...formatOpts(a.opts)];
      if (a.no_index) command.push('--no-index');
      else if (a.cached) command.push('--cached', ...(a.item1 ? [a.item1] : []));
      else for (const v of [a.item1, a.item2]) if (v) command.push(v);
      const paths =
        a.paths === undefined || a.paths === null
          ? []
          : Array.isArray(a.paths)
            ? a.paths.map(String)
            : String(a.paths).split(',');
      if (paths.length > 0) command.push('--', ...paths);
      const o = runOpts(
        { user: a.user, output_encoding: a.output_encoding },
        await expandPath(a.cwd, a.user),
        {
          failhard: !a.no_index,
          ignoreRetcode: a.no_index,
          redirectStderr: true,
        },
      );
      return stdout(ctx, command, o);
    },
  }),
  is_worktree: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        user: z.string().nullish(),
        password: z.string().nullish(),
        output_encoding: z.string().nullish(),
      }),
    doc: 'Whether cwd is inside a git worktree made by git-worktree(1).\n\nCLI Example: salt myminion git.is_worktree /path/to/repo',
    run: (ctx, a) => isWorktree(ctx, a.cwd, a),
  }),
};
