/**
 * Remote-facing functions of Salt's `git` module: clone, fetch, pull, submodule, ls_remote,
 * remote_refs, and a checkout's remotes (remotes, remote_get, remote_set).
 * Merged into `modules/git.ts`.
 */
import { mkdir } from 'node:fs/promises';
import { defineFunction, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import {
  cwdOf,
  https,
  httpsAuth,
  identity,
  runOpts,
  saltenv,
  stdout,
  tail,
  tailWithSaltenv,
  who,
  withOpts,
} from './_git-args.js';
import { parseFetch, parseRefs } from './_git-parse.js';
import { remotes } from './_git-query.js';
import { checkHttpsAuth, expandPath, formatOpts, gitRun } from './_git-run.js';
import { takeKwargs } from './_invalid-kwargs.js';

export const remoteFunctions = {
  clone: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        url: z.string().nullish(),
        name: z.string().nullish(),
        ...withOpts(z),
        ...who(z),
        ...identity(z),
        ...httpsAuth(z),
        ...tailWithSaltenv(z),
      }),
    doc: 'Interface to git-clone(1): clone url into cwd (or into cwd/name when name is given).\n\nCLI Example: salt myminion git.clone /path/to/repo_parent_dir git://github.com/saltstack/salt.git',
    run: async (ctx, a) => {
      const cwd = await expandPath(a.cwd, a.user);
      if (!a.url) throw new SALT_ERR_INVOCATION("Missing 'url' argument");
      checkHttpsAuth(a.url, https(a));
      const command = ['git', ...formatOpts(a.git_opts), 'clone', ...formatOpts(a.opts), '--', a.url];
      let cloneCwd = '/tmp';
      if (a.name) {
        command.push(a.name);
        await mkdir(cwd, { recursive: true });
        cloneCwd = cwd;
      } else command.push(cwd);
      await gitRun(
        ctx,
        command,
        runOpts(a, cloneCwd, { identity: a.identity, saltenv: a.saltenv, https: https(a) }),
      );
      return true;
    },
  }),
  fetch: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        remote: z.string().nullish(),
        force: z.boolean().default(false),
        refspecs: z.unknown().optional(),
        ...withOpts(z),
        ...who(z),
        ...identity(z),
        ...tailWithSaltenv(z),
      }),
    doc: 'Interface to git-fetch(1); returns what was updated (new/updated branches and tags).\n\nCLI Example: salt myminion git.fetch /path/to/repo upstream',
    run: async (ctx, a) => {
      const command = ['git', ...formatOpts(a.git_opts), 'fetch'];
      if (a.force) command.push('--force');
      command.push(...formatOpts(a.opts).filter((x) => x !== '-f' && x !== '--force'));
      if (a.remote) command.push(a.remote);
      if (a.refspecs !== undefined && a.refspecs !== null)
        command.push(...(Array.isArray(a.refspecs) ? a.refspecs.map(String) : String(a.refspecs).split(',')));
      const out = await stdout(
        ctx,
        command,
        runOpts(a, await expandPath(a.cwd, a.user), {
          identity: a.identity,
          redirectStderr: true,
          saltenv: a.saltenv,
        }),
      );
      return parseFetch(out);
    },
  }),
  pull: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        ...withOpts(z),
        ...who(z),
        ...identity(z),
        ...tailWithSaltenv(z),
      }),
    doc: "Interface to git-pull(1)\n\nCLI Example: salt myminion git.pull /path/to/repo opts='--rebase origin master'",
    run: async (ctx, a) =>
      stdout(
        ctx,
        ['git', ...formatOpts(a.git_opts), 'pull', ...formatOpts(a.opts)],
        runOpts(a, await expandPath(a.cwd, a.user), { identity: a.identity, saltenv: a.saltenv }),
      ),
  }),
  push: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        remote: z.string().nullish(),
        ref: z.string().nullish(),
        ...withOpts(z),
        ...who(z),
        ...identity(z),
        ...tailWithSaltenv(z),
      }),
    varkw: true,
    doc: "Interface to git-push(1): pushes ref to remote; returns git's stdout.\n\nCLI Example: salt myminion git.push /path/to/repo origin master opts='--force'",
    run: async (ctx, a, extra) => {
      takeKwargs(extra.kwargs);
      const command = ['git', ...formatOpts(a.git_opts), 'push', ...formatOpts(a.opts)];
      const at = command.length;
      // as Salt: a missing remote or ref reaches git as the word None
      command.push(a.remote ?? 'None', a.ref ?? 'None');
      const o = runOpts(a, await expandPath(a.cwd, a.user), { identity: a.identity, saltenv: a.saltenv });
      const missing = [a.remote, a.ref].findIndex((x) => x === undefined || x === null);
      if (missing < 0 || a.identity) return stdout(ctx, command, o);
      const r = await gitRun(ctx, command, { ...o, failhard: false });
      if (r.retcode === 0) return r.stdout;
      // Salt then fails to join the command into its error message
      throw new SALT_ERR_INVOCATION(`sequence item ${at + missing}: expected str instance, NoneType found`);
    },
  }),
  ls_remote: defineFunction({
    args: (z) =>
      z.object({
        cwd: z.string().nullish(),
        remote: z.string().default('origin'),
        ref: z.string().nullish(),
        ...withOpts(z),
        ...who(z),
        ...identity(z),
        ...httpsAuth(z),
        ...tail(z),
        ...saltenv(z),
      }),
    doc: 'Interface to git-ls-remote(1): {ref: sha1} of a remote.\n\nCLI Example: salt myminion git.ls_remote /path/to/repo origin master',
    run: async (ctx, a) => {
      checkHttpsAuth(a.remote, https(a));
      const command = ['git', ...formatOpts(a.git_opts), 'ls-remote', ...formatOpts(a.opts), a.remote];
      if (a.ref) command.push(a.ref);
      const cwd = a.cwd === undefined || a.cwd === null ? null : await expandPath(a.cwd, a.user);
      return parseRefs(
        await stdout(
          ctx,
          command,
          runOpts(a, cwd, { identity: a.identity, saltenv: a.saltenv, https: https(a) }),
        ),
      );
    },
  }),
  remote_refs: defineFunction({
    args: (z) =>
      z.object({
        url: z.string(),
        heads: z.boolean().default(false),
        tags: z.boolean().default(false),
        ...who(z),
        ...identity(z),
        ...httpsAuth(z),
        ...tail(z),
        ...saltenv(z),
      }),
    varkw: true,
    doc: 'Return the remote refs for the specified URL by running git ls-remote.\n\nCLI Example: salt myminion git.remote_refs https://github.com/saltstack/salt.git',
    run: async (ctx, a, extra) => {
      const { filter } = takeKwargs(extra.kwargs, ['filter']);
      checkHttpsAuth(a.url, https(a));
      const command = [
        'git',
        'ls-remote',
        ...(a.heads ? ['--heads'] : []),
        ...(a.tags ? ['--tags'] : []),
        a.url,
      ];
      if (filter) command.push(String(filter));
      return parseRefs(
        await stdout(
          ctx,
          command,
          runOpts(a, null, { identity: a.identity, saltenv: a.saltenv, https: https(a) }),
        ),
      );
    },
  }),
  remotes: defineFunction({
    args: (z) => z.object({ cwd: cwdOf(z), ...who(z), redact_auth: z.boolean().default(true), ...tail(z) }),
    doc: 'Get fetch and push URLs for each remote in a git checkout.\n\nCLI Example: salt myminion git.remotes /path/to/repo',
    run: (ctx, a) => remotes(ctx, a.cwd, a, a.redact_auth),
  }),
  remote_get: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        remote: z.string().default('origin'),
        ...who(z),
        redact_auth: z.boolean().default(true),
        ...tail(z),
      }),
    doc: 'Get the fetch and push URL for a specific remote.\n\nCLI Example: salt myminion git.remote_get /path/to/repo upstream',
    run: async (ctx, a) => {
      const cwd = await expandPath(a.cwd, a.user);
      const all = await remotes(ctx, cwd, a, a.redact_auth);
      const got = all[a.remote];
      if (!got)
        throw new SALT_ERR_EXEC_COMMAND(`Remote '${a.remote}' not present in git checkout located at ${cwd}`);
      return got;
    },
  }),
  remote_set: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        url: z.string(),
        remote: z.string().default('origin'),
        ...who(z),
        ...httpsAuth(z),
        push_url: z.union([z.string(), z.number()]).transform(String).nullish(),
        push_https_user: z.string().nullish(),
        push_https_pass: z.string().nullish(),
        ...tail(z),
      }),
    doc: 'Sets a remote with the specified name (re-adding it when it exists) and returns its URLs.\n\nCLI Example: salt myminion git.remote_set /path/to/repo git@github.com:user/repo.git',
    run: async (ctx, a) => {
      const cwd = await expandPath(a.cwd, a.user);
      const o = runOpts(a, cwd);
      if (a.remote in (await remotes(ctx, cwd, a))) await gitRun(ctx, ['git', 'remote', 'rm', a.remote], o);
      checkHttpsAuth(a.url, https(a));
      await gitRun(ctx, ['git', 'remote', 'add', a.remote, a.url], o);
      if (a.push_url) {
        checkHttpsAuth(a.push_url, { user: a.push_https_user, pass: a.push_https_pass });
        await gitRun(ctx, ['git', 'remote', 'set-url', '--push', a.remote, a.push_url], o);
      }
      return (await remotes(ctx, cwd, a))[a.remote];
    },
  }),
  submodule: defineFunction({
    args: (z) =>
      z.object({
        cwd: cwdOf(z),
        command: z.string(),
        ...withOpts(z),
        ...who(z),
        ...identity(z),
        ...tailWithSaltenv(z),
      }),
    varkw: true,
    doc: "Interface to git-submodule(1)\n\nCLI Example: salt myminion git.submodule /path/to/repo update opts='--init --recursive'",
    run: async (ctx, a, extra) => {
      const { init } = takeKwargs(extra.kwargs, ['init']);
      const cwd = await expandPath(a.cwd, a.user);
      if (init)
        throw new SALT_ERR_INVOCATION(
          "The 'init' argument is no longer supported. Either set 'command' to 'init', or include '--init' in the 'opts' argument and set 'command' to 'update'.",
        );
      return stdout(
        ctx,
        ['git', ...formatOpts(a.git_opts), 'submodule', a.command, ...formatOpts(a.opts)],
        runOpts(a, cwd, { identity: a.identity, saltenv: a.saltenv }),
      );
    },
  }),
};
