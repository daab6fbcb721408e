/**
 * Functions of Salt's `git` module that read or name refs: rev_parse, revision, current_branch,
 * describe, list_branches, list_tags, branch, tag, symbolic_ref, merge_base.
 * Merged into `modules/git.ts`.
 */
import { defineFunction, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { common, cwdOf, lines, runOpts, stdout, withOpts } from './_git-args.js';
import { expandPath, formatOpts, gitRun } from './_git-run.js';

export const refFunctions = {
  rev_parse: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), rev: z.string().nullish(), ...withOpts(z), ...common(z) }),
    doc: 'Interface to git-rev-parse(1)\n\nCLI Example: salt myminion git.rev_parse /path/to/repo HEAD',
    run: async (ctx, a) => {
      const command = ['git', ...formatOpts(a.git_opts), 'rev-parse', ...formatOpts(a.opts)];
      if (a.rev !== undefined && a.rev !== null) command.push(a.rev);
      return stdout(ctx, command, runOpts(a, await expandPath(a.cwd, a.user)));
    },
  }),
  revision: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        rev: z.string().default('HEAD'),
        short: z.boolean().default(false),
        ...common(z),
      }),
    doc: 'Returns the SHA1 hash of a given identifier (hash, branch, tag, HEAD, etc.)\n\nCLI Example: salt myminion git.revision /path/to/repo mybranch',
    run: async (ctx, a) =>
      stdout(
        ctx,
        ['git', 'rev-parse', ...(a.short ? ['--short'] : []), a.rev],
        runOpts(a, await expandPath(a.cwd, a.user)),
      ),
  }),
  current_branch: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), ...common(z) }),
    doc: 'Returns the current branch name of a local checkout.\n\nCLI Example: salt myminion git.current_branch /path/to/repo',
    run: async (ctx, a) =>
      stdout(ctx, ['git', 'rev-parse', '--abbrev-ref', 'HEAD'], runOpts(a, await expandPath(a.cwd, a.user))),
  }),
  describe: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), rev: z.string().default('HEAD'), ...common(z) }),
    doc: 'Returns the git-describe(1) string (or the SHA1 hash if there are no tags) for the given revision.\n\nCLI Example: salt myminion git.describe /path/to/repo',
    run: async (ctx, a) =>
      stdout(ctx, ['git', 'describe', '--always', a.rev], runOpts(a, await expandPath(a.cwd, a.user))),
  }),
  list_branches: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), remote: z.boolean().default(false), ...common(z) }),
    doc: 'Return a list of branches (remote=True: remote-tracking branches).\n\nCLI Example: salt myminion git.list_branches /path/to/repo',
    run: async (ctx, a) =>
      lines(
        await stdout(
          ctx,
          ['git', 'for-each-ref', '--format', '%(refname:short)', `refs/${a.remote ? 'remotes' : 'heads'}/`],
          runOpts(a, await expandPath(a.cwd, a.user)),
        ),
      ),
  }),
  list_tags: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), ...common(z) }),
    doc: 'Return a list of tags\n\nCLI Example: salt myminion git.list_tags /path/to/repo',
    run: async (ctx, a) =>
      lines(
        await stdout(
          ctx,
          ['git', 'for-each-ref', '--format', '%(refname:short)', 'refs/tags/'],
          runOpts(a, await expandPath(a.cwd, a.user)),
        ),
      ),
  }),
  branch: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), name: z.string().nullish(), ...withOpts(z), ...common(z) }),
    doc: "Interface to git-branch(1)\n\nCLI Example: salt myminion git.branch /path/to/repo mybranch opts='-m oldbranch'",
    run: async (ctx, a) => {
      const command = [
        'git',
        ...formatOpts(a.git_opts),
        'branch',
        ...formatOpts(a.opts),
        ...(a.name ? [a.name] : []),
      ];
      await gitRun(ctx, command, runOpts(a, await expandPath(a.cwd, a.user)));
      return true;
    },
  }),
  tag: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        name: z.string(),
        ref: z.string().default('HEAD'),
        ...withOpts(z),
        ...common(z),
      }),
    doc: "Interface to git-tag(1): add (or with opts='-d' delete) a tag.\n\nCLI Example: salt myminion git.tag /path/to/repo v1.2",
    run: async (ctx, a) => {
      const opts = formatOpts(a.opts);
      const command = ['git', ...formatOpts(a.git_opts), 'tag', ...opts, a.name];
      if (!opts.includes('-d') && !opts.includes('--delete')) command.push(a.ref);
      await gitRun(ctx, command, runOpts(a, await expandPath(a.cwd, a.user), { redirectStderr: true }));
      return true;
    },
  }),
  symbolic_ref: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        ref: z.string(),
        value: z.string().nullish(),
        ...withOpts(z),
        ...common(z),
      }),
    doc: "Interface to git-symbolic-ref(1)\n\nCLI Example: salt myminion git.symbolic_ref /path/to/repo HEAD opts='--quiet'",
    run: async (ctx, a) => {
      const command = [
        'git',
        ...formatOpts(a.git_opts),
        'symbolic-ref',
        ...formatOpts(a.opts),
        a.ref,
        ...(a.value ? [a.value] : []),
      ];
      return stdout(ctx, command, runOpts(a, await expandPath(a.cwd, a.user)));
    },
  }),
  merge_base: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        refs: z.unknown().optional(),
        is_ancestor: z.boolean().default(false),
        ...withOpts(z),
        ...common(z),
      }),
    varkw: true,
    doc: 'Interface to git-merge-base(1); is_ancestor=True answers whether the first ref is an ancestor of the second.\n\nCLI Example: salt myminion git.merge_base /path/to/repo refs=8f2e542,4ad8cab is_ancestor=True',
    run: async (ctx, a, extra) => {
      const refs =
        a.refs === undefined || a.refs === null
          ? []
          : Array.isArray(a.refs)
            ? a.refs.map(String)
            : String(a.refs)
                .split(',')
                .map((x) => x.trim());
      if (a.is_ancestor && refs.length !== 2)
        throw new SALT_ERR_INVOCATION("Two refs/commits are required if 'is_ancestor' is True");
      const command = ['git', ...formatOpts(a.git_opts), 'merge-base', ...formatOpts(a.opts)];
      if (extra.kwargs.all === true) command.push('--all');
      if (a.is_ancestor) command.push('--is-ancestor');
      command.push(...refs);
      const r = await gitRun(
        ctx,
        command,
        runOpts(a, await expandPath(a.cwd, a.user), { failhard: !a.is_ancestor }),
      );
      if (a.is_ancestor) return r.retcode === 0;
      const all = lines(r.stdout);
      return extra.kwargs.all === true ? all : all[0];
    },
  }),
};
