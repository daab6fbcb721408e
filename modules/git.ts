/**
 * Salt's `git` execution module (`salt/modules/git.py`) through the `git` program: the
 * functions `git.latest`/`git.present`/`git.cloned`/`git.config_set` need and the ones users
 * call most. Every command runs as argv (`_git-run.ts`); `user` runs it as that user; https
 * credentials never reach a command line (see `_git-run.ts`).
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z as Zod } from 'zod';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { parseConfigRegexp, parseFetch, parseRefs, parseRemotes, parseStatus } from './_git-parse.js';
import { checkHttpsAuth, expandPath, formatOpts, type GitRunOpts, gitRun, redactAuth } from './_git-run.js';
import { which } from './_which.js';

type Z = typeof Zod;
type Common = { user?: string | null; ignore_retcode?: boolean; output_encoding?: string | null };

const common = (z: Z) => ({
  user: z.string().nullish(),
  password: z.string().nullish(),
  ignore_retcode: z.boolean().default(false),
  output_encoding: z.string().nullish(),
});
const withOpts = (z: Z) => ({ opts: z.unknown().default(''), git_opts: z.unknown().default('') });
/** The arguments of functions that reach a remote: an ssh identity, https credentials, its saltenv. */
const remoteAuth = (z: Z) => ({
  identity: z.unknown().optional(),
  https_user: z.string().nullish(),
  https_pass: z.string().nullish(),
  saltenv: z.string().default('base'),
});
const cwdOf = (z: Z) => z.union([z.string(), z.number()]).transform(String);

const runOpts = (a: Common, cwd: string | null, more: Partial<GitRunOpts> = {}): GitRunOpts => ({
  cwd,
  user: a.user,
  ignoreRetcode: a.ignore_retcode ?? false,
  outputEncoding: a.output_encoding,
  ...more,
});

async function stdout(ctx: ExecContext, command: string[], o: GitRunOpts): Promise<string> {
  return (await gitRun(ctx, command, o)).stdout;
}

async function version(ctx: ExecContext): Promise<string> {
  const cached = ctx.cache.get('git.version');
  if (typeof cached === 'string') return cached;
  let v = 'unknown';
  try {
    let out = await stdout(ctx, ['git', '--version'], {});
    if (out.includes('(')) out = (out.split('(')[0] as string).trim();
    v = out.trim().split(/\s+/).pop() || 'unknown';
  } catch (err) {
    ctx.log.error({ err: String(err) }, 'Failed to obtain the git version');
  }
  ctx.cache.set('git.version', v);
  return v;
}

async function remotes(ctx: ExecContext, cwd: string, a: Common, redact = true) {
  const out = await stdout(ctx, ['git', 'remote', '--verbose'], runOpts(a, await expandPath(cwd, a.user)));
  return parseRemotes(out, redact ? redactAuth : (s) => s);
}

async function configGetter(
  ctx: ExecContext,
  getOpt: string,
  key: string,
  a: Common & { cwd?: string | null; value_regex?: unknown },
  global: boolean,
) {
  let cwd: string | null = null;
  if (a.cwd === undefined || a.cwd === null) {
    if (!global) throw new SALT_ERR_INVOCATION("'cwd' argument required unless global=True");
  } else cwd = await expandPath(a.cwd, a.user);
  const command = ['git', 'config', global ? '--global' : '--local', getOpt, key];
  if (getOpt === '--get-regexp' && a.value_regex !== undefined && a.value_regex !== null)
    command.push(String(a.value_regex));
  return gitRun(ctx, command, runOpts(a, cwd, { failhard: false }));
}

async function configGet(
  ctx: ExecContext,
  key: string,
  a: Common & { cwd?: string | null },
  kw: Record<string, unknown>,
) {
  const r = await configGetter(ctx, '--get-all', key, a, kw.global === true);
  if (r.retcode === 1) return null;
  const lines = r.stdout.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1);
  if (r.stdout === '') return kw.all === true ? [] : '';
  return kw.all === true ? lines : (lines[lines.length - 1] ?? '');
}

async function isWorktree(ctx: ExecContext, cwd: string, a: Common): Promise<boolean> {
  let top: string;
  try {
    top = await stdout(
      ctx,
      ['git', 'rev-parse', '--show-toplevel'],
      runOpts(a, await expandPath(cwd, a.user), { ignoreRetcode: true }),
    );
  } catch {
    return false;
  }
  try {
    const first = (await readFile(path.join(top, '.git'), 'utf8')).split('\n')[0] ?? '';
    const m = /^(\S+)\s+(.+)$/.exec(first);
    return m !== null && m[1] === 'gitdir:' && path.isAbsolute(m[2] as string);
  } catch {
    return false;
  }
}

const https = (a: { https_user?: string | null; https_pass?: string | null }) => ({
  user: a.https_user,
  pass: a.https_pass,
});

export default defineModule({
  name: 'git',
  doc: 'Support for the Git SCM, through the git program.',
  virtual: () =>
    which('git')
      ? true
      : { ok: false, reason: 'The git execution module cannot be loaded: git unavailable.' },
  functions: {
    version: defineFunction({
      args: (z) => z.object({ versioninfo: z.boolean().default(false) }),
      doc: 'Returns the version of Git installed on the minion (versioninfo=True: as a list).\n\nCLI Example: salt myminion git.version',
      run: async (ctx, a) => {
        const v = await version(ctx);
        return a.versioninfo ? v.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : v;
      },
    }),
    clone: defineFunction({
      args: (z) =>
        z.object({
          cwd: cwdOf(z),
          url: z.string().nullish(),
          name: z.string().nullish(),
          ...withOpts(z),
          ...common(z),
          ...remoteAuth(z),
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
    fetch: defineFunction({
      args: (z) =>
        z.object({
          cwd: cwdOf(z),
          remote: z.string().nullish(),
          force: z.boolean().default(false),
          refspecs: z.unknown().optional(),
          ...withOpts(z),
          ...common(z),
          identity: z.unknown().optional(),
          saltenv: z.string().default('base'),
        }),
      doc: 'Interface to git-fetch(1); returns what was updated (new/updated branches and tags).\n\nCLI Example: salt myminion git.fetch /path/to/repo upstream',
      run: async (ctx, a) => {
        const command = ['git', ...formatOpts(a.git_opts), 'fetch'];
        if (a.force) command.push('--force');
        command.push(...formatOpts(a.opts).filter((x) => x !== '-f' && x !== '--force'));
        if (a.remote) command.push(a.remote);
        if (a.refspecs !== undefined && a.refspecs !== null)
          command.push(
            ...(Array.isArray(a.refspecs) ? a.refspecs.map(String) : String(a.refspecs).split(',')),
          );
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
          ...common(z),
          identity: z.unknown().optional(),
          saltenv: z.string().default('base'),
        }),
      doc: "Interface to git-pull(1)\n\nCLI Example: salt myminion git.pull /path/to/repo opts='--rebase origin master'",
      run: async (ctx, a) =>
        stdout(
          ctx,
          ['git', ...formatOpts(a.git_opts), 'pull', ...formatOpts(a.opts)],
          runOpts(a, await expandPath(a.cwd, a.user), { identity: a.identity, saltenv: a.saltenv }),
        ),
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
        stdout(
          ctx,
          ['git', 'rev-parse', '--abbrev-ref', 'HEAD'],
          runOpts(a, await expandPath(a.cwd, a.user)),
        ),
    }),
    describe: defineFunction({
      args: (z) => z.object({ cwd: cwdOf(z), rev: z.string().default('HEAD'), ...common(z) }),
      doc: 'Returns the git-describe(1) string (or the SHA1 hash if there are no tags) for the given revision.\n\nCLI Example: salt myminion git.describe /path/to/repo',
      run: async (ctx, a) =>
        stdout(ctx, ['git', 'describe', '--always', a.rev], runOpts(a, await expandPath(a.cwd, a.user))),
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
    ls_remote: defineFunction({
      args: (z) =>
        z.object({
          cwd: z.string().nullish(),
          remote: z.string().default('origin'),
          ref: z.string().nullish(),
          ...withOpts(z),
          ...common(z),
          ...remoteAuth(z),
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
          ...common(z),
          ...remoteAuth(z),
          filter: z.string().nullish(),
        }),
      doc: 'Return the remote refs for the specified URL by running git ls-remote.\n\nCLI Example: salt myminion git.remote_refs https://github.com/saltstack/salt.git',
      run: async (ctx, a) => {
        checkHttpsAuth(a.url, https(a));
        const command = [
          'git',
          'ls-remote',
          ...(a.heads ? ['--heads'] : []),
          ...(a.tags ? ['--tags'] : []),
          a.url,
        ];
        if (a.filter) command.push(a.filter);
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
      args: (z) => z.object({ cwd: cwdOf(z), ...common(z), redact_auth: z.boolean().default(true) }),
      doc: 'Get fetch and push URLs for each remote in a git checkout.\n\nCLI Example: salt myminion git.remotes /path/to/repo',
      run: (ctx, a) => remotes(ctx, a.cwd, a, a.redact_auth),
    }),
    remote_get: defineFunction({
      args: (z) =>
        z.object({
          cwd: cwdOf(z),
          remote: z.string().default('origin'),
          ...common(z),
          redact_auth: z.boolean().default(true),
        }),
      doc: 'Get the fetch and push URL for a specific remote.\n\nCLI Example: salt myminion git.remote_get /path/to/repo upstream',
      run: async (ctx, a) => {
        const cwd = await expandPath(a.cwd, a.user);
        const all = await remotes(ctx, cwd, a, a.redact_auth);
        const got = all[a.remote];
        if (!got)
          throw new SALT_ERR_EXEC_COMMAND(
            `Remote '${a.remote}' not present in git checkout located at ${cwd}`,
          );
        return got;
      },
    }),
    remote_set: defineFunction({
      args: (z) =>
        z.object({
          cwd: cwdOf(z),
          url: z.string(),
          remote: z.string().default('origin'),
          ...common(z),
          https_user: z.string().nullish(),
          https_pass: z.string().nullish(),
          push_url: z.string().nullish(),
        }),
      doc: 'Sets a remote with the specified name (re-adding it when it exists) and returns its URLs.\n\nCLI Example: salt myminion git.remote_set /path/to/repo git@github.com:user/repo.git',
      run: async (ctx, a) => {
        const cwd = await expandPath(a.cwd, a.user);
        const o = runOpts(a, cwd);
        if (a.remote in (await remotes(ctx, cwd, a))) await gitRun(ctx, ['git', 'remote', 'rm', a.remote], o);
        checkHttpsAuth(a.url, https(a));
        await gitRun(ctx, ['git', 'remote', 'add', a.remote, a.url], o);
        if (a.push_url) await gitRun(ctx, ['git', 'remote', 'set-url', '--push', a.remote, a.push_url], o);
        return (await remotes(ctx, cwd, a))[a.remote];
      },
    }),
    config_get: defineFunction({
      args: (z) => z.object({ key: z.string(), cwd: z.string().nullish(), ...common(z) }),
      varkw: true,
      doc: "Get the value of a key in the git configuration file (all=True: every value; global=True: the user's).\n\nCLI Example: salt myminion git.config_get user.name cwd=/path/to/repo",
      run: (ctx, a, extra) => configGet(ctx, a.key, a, extra.kwargs),
    }),
    config_get_regexp: defineFunction({
      args: (z) =>
        z.object({
          key: z.string(),
          value_regex: z.unknown().optional(),
          cwd: z.string().nullish(),
          ...common(z),
        }),
      varkw: true,
      doc: "Get the value of a key or keys in the git configuration file using regexes: {key: [values]}.\n\nCLI Example: salt myminion git.config_get_regexp '^user\\.' cwd=/path/to/repo",
      run: async (ctx, a, extra) => {
        const r = await configGetter(ctx, '--get-regexp', a.key, a, extra.kwargs.global === true);
        return r.retcode === 1 ? {} : parseConfigRegexp(r.stdout);
      },
    }),
    config_set: defineFunction({
      args: (z) =>
        z.object({
          key: z.string(),
          value: z.unknown().optional(),
          multivar: z.unknown().optional(),
          cwd: z.string().nullish(),
          ...common(z),
        }),
      varkw: true,
      doc: 'Set a key in the git configuration file (value, or multivar for several); returns the values now set.\n\nCLI Example: salt myminion git.config_set user.email me@example.com cwd=/path/to/repo',
      run: async (ctx, a, extra) => {
        const global = extra.kwargs.global === true;
        let cwd: string | null = null;
        if (a.cwd === undefined || a.cwd === null) {
          if (!global) throw new SALT_ERR_INVOCATION("'cwd' argument required unless global=True");
        } else cwd = await expandPath(a.cwd, a.user);
        const has = (v: unknown) => v !== undefined && v !== null;
        if (has(a.value) && has(a.multivar))
          throw new SALT_ERR_INVOCATION("Only one of 'value' and 'multivar' is permitted");
        const prefix = ['git', 'config', ...(global ? ['--global'] : [])];
        const o = runOpts(a, cwd);
        if (has(a.value)) {
          await gitRun(
            ctx,
            [...prefix, extra.kwargs.add === true ? '--add' : '--replace-all', a.key, String(a.value)],
            o,
          );
        } else {
          const mv = Array.isArray(a.multivar) ? a.multivar.map(String) : String(a.multivar ?? '').split(',');
          for (const [i, v] of mv.entries())
            await gitRun(ctx, [...prefix, i === 0 ? '--replace-all' : '--add', a.key, v], o);
        }
        return configGet(ctx, a.key, { ...a, cwd }, { all: true, global });
      },
    }),
    list_branches: defineFunction({
      args: (z) => z.object({ cwd: cwdOf(z), remote: z.boolean().default(false), ...common(z) }),
      doc: 'Return a list of branches (remote=True: remote-tracking branches).\n\nCLI Example: salt myminion git.list_branches /path/to/repo',
      run: async (ctx, a) =>
        lines(
          await stdout(
            ctx,
            [
              'git',
              'for-each-ref',
              '--format',
              '%(refname:short)',
              `refs/${a.remote ? 'remotes' : 'heads'}/`,
            ],
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
    reset: defineFunction({
      args: (z) =>
        z.object({ cwd: cwdOf(z), ...withOpts(z), ...common(z), identity: z.unknown().optional() }),
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
          ...common(z),
          identity: z.unknown().optional(),
        }),
      doc: 'Interface to git-merge(1)\n\nCLI Example: salt myminion git.merge /path/to/repo rev=upstream/foo',
      run: async (ctx, a) =>
        stdout(
          ctx,
          ['git', ...formatOpts(a.git_opts), 'merge', ...formatOpts(a.opts), ...(a.rev ? [a.rev] : [])],
          runOpts(a, await expandPath(a.cwd, a.user), { identity: a.identity }),
        ),
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
    submodule: defineFunction({
      args: (z) =>
        z.object({
          cwd: cwdOf(z),
          command: z.string(),
          ...withOpts(z),
          ...common(z),
          identity: z.unknown().optional(),
          saltenv: z.string().default('base'),
        }),
      doc: "Interface to git-submodule(1)\n\nCLI Example: salt myminion git.submodule /path/to/repo update opts='--init --recursive'",
      run: async (ctx, a) =>
        stdout(
          ctx,
          ['git', ...formatOpts(a.git_opts), 'submodule', a.command, ...formatOpts(a.opts)],
          runOpts(a, await expandPath(a.cwd, a.user), { identity: a.identity, saltenv: a.saltenv }),
        ),
    }),
  },
});

function lines(s: string): string[] {
  return s === '' ? [] : s.split('\n');
}
