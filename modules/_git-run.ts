/**
 * Runs the `git` program for the `git` execution module, as Salt's `_git_run` does: argv (never
 * a shell) through `cmd.run_all`, a failure raised as `Command 'git ...' failed: <stderr>`
 * unless `failhard` is off, basic-auth URLs redacted in every message.
 *
 * Deliberate difference: Salt writes `https_user`/`https_pass` into the URL on git's command
 * line (visible in `ps`). Here they reach git through the environment of the one git process and
 * a credential helper that reads it, so no secret is ever on a command line or in a log.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { passwdByName } from './_passwd-db.js';
import { shlexSplit } from './_shlex.js';

export interface GitRunResult {
  pid?: number;
  retcode: number;
  stdout: string;
  stderr: string;
}

export interface GitRunOpts {
  cwd?: string | null | undefined;
  user?: string | null | undefined;
  identity?: unknown;
  ignoreRetcode?: boolean;
  failhard?: boolean;
  redirectStderr?: boolean;
  saltenv?: string;
  outputEncoding?: string | null | undefined;
  https?: HttpsAuth | undefined;
}

export interface HttpsAuth {
  user?: string | null | undefined;
  pass?: string | null | undefined;
}

/** Salt's `redact_http_basic_auth`. */
export const redactAuth = (s: string): string => s.replace(/(https?):\/\/.*@/gi, '$1://<redacted>@');

/** Salt's `_format_opts`: a list as is (stringified), a string shell-split, a trailing `--` dropped. */
export function formatOpts(opts: unknown): string[] {
  if (opts === undefined || opts === null || opts === '') return [];
  if (Array.isArray(opts)) return opts.map((x) => (typeof x === 'string' ? x : String(x)));
  const list = typeof opts === 'string' ? shlexSplit(opts) : [String(opts)];
  return list[list.length - 1] === '--' ? list.slice(0, -1) : list;
}

/** Salt's `_expand_path`: a relative `cwd` is under the (given user's) home; an absolute one stays. */
export async function expandPath(cwd: unknown, user?: string | null): Promise<string> {
  const c = String(cwd);
  if (path.isAbsolute(c)) return c;
  const home = user ? ((await passwdByName(user))?.home ?? `~${user}`) : os.homedir();
  return path.join(home, c);
}

/** Checks Salt's `https_only` rule: basic auth only for https:// URLs. */
export function checkHttpsAuth(url: string, auth: HttpsAuth | undefined): void {
  if (
    !auth ||
    ((auth.user === undefined || auth.user === null) && (auth.pass === undefined || auth.pass === null))
  )
    return;
  if (!/^https:/i.test(url)) throw new SALT_ERR_INVOCATION('Basic Auth only supported for HTTPS');
}

const CRED_HELPER =
  '!f() { test "$1" = get || exit 0; echo "username=$TSALT_GIT_HTTPS_USER"; test -n "$TSALT_GIT_HTTPS_PASS" && echo "password=$TSALT_GIT_HTTPS_PASS"; }; f';

/** The `git -c` options and environment that hand basic-auth credentials to git. */
function authSetup(auth: HttpsAuth | undefined): { pre: string[]; env: Record<string, string> } {
  if (!auth || auth.user === undefined || auth.user === null) return { pre: [], env: {} };
  return {
    pre: ['-c', 'credential.helper=', '-c', `credential.helper=${CRED_HELPER}`],
    env: {
      TSALT_GIT_HTTPS_USER: String(auth.user),
      TSALT_GIT_HTTPS_PASS: auth.pass === undefined || auth.pass === null ? '' : String(auth.pass),
      GIT_TERMINAL_PROMPT: '0',
    },
  };
}

const shellQuote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

async function once(ctx: ExecContext, argv: string[], o: GitRunOpts, env: Record<string, string>) {
  const kw: Record<string, unknown> = {
    python_shell: false,
    env,
    ignore_retcode: o.ignoreRetcode ?? false,
    redirect_stderr: o.redirectStderr ?? false,
  };
  if (o.cwd) kw.cwd = o.cwd;
  if (o.user) kw.runas = o.user;
  if (o.outputEncoding) kw.output_encoding = o.outputEncoding;
  return (await ctx.call('cmd.run_all', [argv], kw)) as GitRunResult;
}

/** Runs `command` (starting with `git`); see the file comment. */
export async function gitRun(ctx: ExecContext, command: string[], o: GitRunOpts = {}): Promise<GitRunResult> {
  const auth = authSetup(o.https);
  const argv = auth.pre.length > 0 ? ['git', ...auth.pre, ...command.slice(1)] : command;
  const failhard = o.failhard ?? true;
  const identity = o.identity === undefined || o.identity === null || o.identity === '' ? [] : o.identity;
  const ids = Array.isArray(identity) ? identity.map(String) : [String(identity)];
  if (ids.length === 0) {
    const r = await once(ctx, argv, o, auth.env);
    if (r.retcode === 0 || !failhard) return r;
    let msg = `Command '${redactAuth(command.join(' '))}' failed`;
    const err = o.redirectStderr ? r.stdout : r.stderr;
    if (err) msg += `: ${redactAuth(err)}`;
    throw new SALT_ERR_EXEC_COMMAND(msg);
  }
  const errors: string[] = [];
  const missing: string[] = [];
  let last: GitRunResult | undefined;
  for (let id of ids) {
    if (id.includes('salt://')) {
      const got = await ctx.call('cp.cache_file', [id], { saltenv: o.saltenv ?? 'base' });
      if (typeof got !== 'string' || got === '') {
        ctx.log.error({ identity: id }, `identity ${id} does not exist.`);
        continue;
      }
      id = got;
    } else if (!existsSync(id)) {
      missing.push(id);
      ctx.log.error({ identity: id }, `identity ${id} does not exist.`);
      continue;
    }
    const sshCmd = `ssh -i ${shellQuote(id)} -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no`;
    last = await once(ctx, argv, o, { ...auth.env, GIT_SSH_COMMAND: sshCmd });
    if (last.retcode === 0) return last;
    const err = o.redirectStderr ? last.stdout : last.stderr;
    if (err) errors.push(redactAuth(err));
  }
  if (failhard || last === undefined) {
    let msg = `Unable to authenticate using identity file:\n\n${errors.join('\n')}`;
    if (missing.length > 0) {
      if (errors.length > 0) msg += '\n\n';
      msg += `The following identity file(s) were not found: ${missing.join(', ')}`;
    }
    throw new SALT_ERR_EXEC_COMMAND(msg);
  }
  return last;
}
