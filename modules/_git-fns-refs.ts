/**
 * Functions of Salt's `git` module that read or name refs: rev_parse, revision, current_branch,
 * describe, list_branches, list_tags, branch, tag, symbolic_ref, merge_base.
 * Merged into `modules/git.ts`.
 */
import { defineFunction, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { common, cwdOf, lines, runOpts, stdout, withOpts } from './_git-args.js';
import { expandPath, formatOpts, gitRun } from './_git-run.js';
import { takeKwargs } from './_invalid-kwargs.js';

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
        message: z.string().nullish(),
        ...withOpts(z),
        ...common(z),
      }),
    doc: "Interface to git-tag(1): add (or with opts='-d' delete) a tag; a message makes it an annotated tag.\n\nCLI Example: salt myminion git.tag /path/to/repo v1.2",
    run: async (ctx, a) => {
      const cwd = await expandPath(a.cwd, a.user);
      // -a/--annotate without a message would open an editor: a message is the way to annotate
      const opts = formatOpts(a.opts).filter((x) => x !== '-a' && x !== '--annotate');
      if (opts.some((x) => x === '-m' || x.includes('--message')))
        throw new SALT_ERR_INVOCATION('Tag messages must be passed in the "message" argument');
      const command = ['git', ...formatOpts(a.git_opts), 'tag', ...opts];
      const deleting = opts.includes('-d') || opts.includes('--delete');
      if (a.message && !deleting) command.push('-m', a.message);
      command.push(a.name);
      if (!deleting) command.push(a.ref);
      return stdout(ctx, command, runOpts(a, cwd, { redirectStderr: true }));
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
        octopus: z.boolean().default(false),
        is_ancestor: z.boolean().default(false),
        independent: z.boolean().default(false),
        fork_point: z.string().nullish(),
        ...withOpts(z),
        ...common(z),
      }),
    varkw: true,
    doc: 'Interface to git-merge-base(1); is_ancestor=True answers whether the first ref is an ancestor of the second.\n\nCLI Example: salt myminion git.merge_base /path/to/repo refs=8f2e542,4ad8cab is_ancestor=True',
    run: async (ctx, a, extra) => {
      const cwd = await expandPath(a.cwd, a.user);
      const all = pyTruthy(takeKwargs(extra.kwargs, ['all']).all);
      if (all && (a.independent || a.is_ancestor || a.fork_point))
        throw new SALT_ERR_INVOCATION(
          "The 'all' argument is not compatible with 'independent', 'is_ancestor', or 'fork_point'",
        );
      let refs =
        a.refs === undefined || a.refs === null
          ? []
          : Array.isArray(a.refs)
            ? a.refs.map(String)
            : String(a.refs)
                .split(',')
                .map((x) => x.trim());
      if ([a.octopus, a.independent, a.is_ancestor, a.fork_point].filter(Boolean).length > 1)
        throw new SALT_ERR_INVOCATION(
          "Only one of 'octopus', 'independent', 'is_ancestor', and 'fork_point' is permitted",
        );
      if (a.is_ancestor && refs.length !== 2)
        throw new SALT_ERR_INVOCATION("Two refs/commits are required if 'is_ancestor' is True");
      if (!a.is_ancestor && a.fork_point) {
        if (refs.length > 1)
          throw new SALT_ERR_INVOCATION("At most one ref/commit can be passed if 'fork_point' is specified");
        if (refs.length === 0) refs = ['HEAD'];
      }
      const command = ['git', ...formatOpts(a.git_opts), 'merge-base', ...formatOpts(a.opts)];
      if (all) command.push('--all');
      if (a.octopus) command.push('--octopus');
      else if (a.is_ancestor) command.push('--is-ancestor');
      else if (a.independent) command.push('--independent');
      else if (a.fork_point) command.push('--fork-point', a.fork_point);
      command.push(...refs);
      const r = await gitRun(ctx, command, runOpts(a, cwd, { failhard: !a.is_ancestor }));
      if (a.is_ancestor) return r.retcode === 0;
      const bases = lines(r.stdout);
      return all ? bases : bases[0];
    },
  }),
};
