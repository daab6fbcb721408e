/**
 * Functions of Salt's `git` module that record or rewrite history in a checkout: commit, rm,
 * stash, rebase, merge_tree, archive.
 * Merged into `modules/git.ts`.
 */
import { defineFunction, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { common, cwdOf, runOpts, stdout, withOpts } from './_git-args.js';
import { expandPath, formatOpts, gitRun } from './_git-run.js';
import { takeKwargs } from './_invalid-kwargs.js';
import { shlexSplit } from './_shlex.js';

/** Python's `os.path.basename`: what follows the last slash (empty for a trailing slash). */
const pyBasename = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** A value Salt puts on git's command line as is (YAML may have made it a number). */
const argOf = (z: typeof import('zod').z) => z.union([z.string(), z.number()]).transform(String);

export const commitFunctions = {
  commit: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        message: argOf(z),
        ...withOpts(z),
        user: z.string().nullish(),
        password: z.string().nullish(),
        filename: argOf(z).nullish(),
        ignore_retcode: z.boolean().default(false),
        output_encoding: z.string().nullish(),
      }),
    doc: "Interface to git-commit(1): commits with the given message (filename: that tracked file, unstaged).\n\nCLI Example: salt myminion git.commit /path/to/repo 'The commit message' filename=foo/bar.py",
    run: async (ctx, a) => {
      const command = ['git', ...formatOpts(a.git_opts), 'commit', '-m', a.message, ...formatOpts(a.opts)];
      if (a.filename) command.push('--', a.filename);
      return stdout(ctx, command, runOpts(a, await expandPath(a.cwd, a.user)));
    },
  }),
  add: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), filename: argOf(z), ...withOpts(z), ...common(z) }),
    doc: "Interface to git-add(1): adds a file (or, with opts='-A', more) to the index; --verbose is always passed, so the stdout names what was added.\n\nCLI Example: salt myminion git.add /path/to/repo foo/bar.py opts='--dry-run'",
    run: async (ctx, a) => {
      const opts = formatOpts(a.opts).filter((x) => x !== '-v' && x !== '--verbose');
      const command = ['git', ...formatOpts(a.git_opts), 'add', '--verbose', ...opts, '--', a.filename];
      return stdout(ctx, command, runOpts(a, await expandPath(a.cwd, a.user)));
    },
  }),
  rm: defineFunction({
    pyName: 'rm_',
    args: (z) => z.object({ cwd: cwdOf(z), filename: argOf(z), ...withOpts(z), ...common(z) }),
    doc: "Interface to git-rm(1): removes a file (or, with opts='-r', a directory) from the index and the tree.\n\nCLI Example: salt myminion git.rm /path/to/repo foo/bar.py",
    run: async (ctx, a) =>
      stdout(
        ctx,
        ['git', ...formatOpts(a.git_opts), 'rm', ...formatOpts(a.opts), '--', a.filename],
        runOpts(a, await expandPath(a.cwd, a.user)),
      ),
  }),
  stash: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), action: argOf(z).default('save'), ...withOpts(z), ...common(z) }),
    doc: "Interface to git-stash(1), returns the stdout from the git command (action: save, apply, drop, list, ...).\n\nCLI Example: salt myminion git.stash /path/to/repo apply opts='stash@{1}'",
    run: async (ctx, a) =>
      stdout(
        ctx,
        ['git', ...formatOpts(a.git_opts), 'stash', a.action, ...formatOpts(a.opts)],
        runOpts(a, await expandPath(a.cwd, a.user)),
      ),
  }),
  rebase: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), rev: argOf(z).default('master'), ...withOpts(z), ...common(z) }),
    doc: "Interface to git-rebase(1): rebases the current branch onto rev (interactive rebases are refused).\n\nCLI Example: salt myminion git.rebase /path/to/repo origin/master opts='--onto newbranch'",
    run: async (ctx, a) => {
      const cwd = await expandPath(a.cwd, a.user);
      const opts = formatOpts(a.opts);
      if (opts.some((x) => x === '-i' || x === '--interactive'))
        throw new SALT_ERR_INVOCATION('Interactive rebases are not supported');
      const command = ['git', ...formatOpts(a.git_opts), 'rebase', ...opts, ...shlexSplit(a.rev)];
      return stdout(ctx, command, runOpts(a, cwd));
    },
  }),
  merge_tree: defineFunction({
    args: (z) =>
      z.object({ cwd: cwdOf(z), ref1: argOf(z), ref2: argOf(z), base: argOf(z).nullish(), ...common(z) }),
    doc: 'Interface to git-merge-tree(1): shows the merge of ref1 and ref2 (from their merge base unless base is given) without touching the index.\n\nCLI Example: salt myminion git.merge_tree /path/to/repo HEAD upstream/dev',
    run: async (ctx, a) => {
      const cwd = await expandPath(a.cwd, a.user);
      let base = a.base;
      if (base === undefined || base === null) {
        // as Salt: the merge base is asked for without the caller's user, and any failure
        // (a missing cwd too) becomes one error
        const found = await gitRun(ctx, ['git', 'merge-base', a.ref1, a.ref2], {
          cwd,
          outputEncoding: a.output_encoding,
          failhard: false,
        }).catch(() => undefined);
        base = found?.retcode === 0 ? found.stdout.split('\n')[0] : undefined;
        if (base === undefined)
          throw new SALT_ERR_EXEC_COMMAND(`Unable to determine merge base for ${a.ref1} and ${a.ref2}`);
      }
      return stdout(ctx, ['git', 'merge-tree', base, a.ref1, a.ref2], runOpts(a, cwd));
    },
  }),
  archive: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        output: cwdOf(z),
        rev: argOf(z).default('HEAD'),
        prefix: argOf(z).nullish(),
        git_opts: z.unknown().default(''),
        ...common(z),
      }),
    varkw: true,
    doc: "Interface to git-archive(1): writes a tarball/zip of the repository (or of cwd within it) to output; the prefix is cwd's basename unless given (prefix='' for none).\n\nCLI Example: salt myminion git.archive /path/to/repo /path/to/archive.tar",
    run: async (ctx, a, extra) => {
      const cwd = await expandPath(a.cwd, a.user);
      const output = await expandPath(a.output, a.user);
      const format = takeKwargs(extra.kwargs, ['format']).format;
      const command = ['git', ...formatOpts(a.git_opts), 'archive'];
      if (a.prefix !== '') command.push('--prefix', a.prefix || `${pyBasename(cwd)}/`);
      if (format) command.push('--format', String(format));
      command.push('--output', output, a.rev);
      await gitRun(ctx, command, runOpts(a, cwd));
      return true;
    },
  }),
};
