/**
 * What several `git` functions ask git first: its version (cached per loader), a checkout's
 * remotes, a config key's values, and whether a checkout is a linked worktree.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { type Common, runOpts, stdout } from './_git-args.js';
import { parseRemotes } from './_git-parse.js';
import { expandPath, gitRun, redactAuth } from './_git-run.js';

export async function gitVersion(ctx: ExecContext): Promise<string> {
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

export async function remotes(ctx: ExecContext, cwd: string, a: Common, redact = true) {
  const out = await stdout(ctx, ['git', 'remote', '--verbose'], runOpts(a, await expandPath(cwd, a.user)));
  return parseRemotes(out, redact ? redactAuth : (s) => s);
}

export async function configGetter(
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

export async function configGet(
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

export async function isWorktree(ctx: ExecContext, cwd: string, a: Common): Promise<boolean> {
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
