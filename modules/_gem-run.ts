/**
 * How Salt's `gem` module runs the `gem` program (`_gem` in salt/modules/gem.py): `gem_bin`
 * (or `gem`) with argv, never a shell line; without `gem_bin`, through RVM when its program
 * exists (`<rvm> <ruby|default> do gem ...`) or else rbenv's (`gem` with rbenv's shims first
 * on PATH, `RBENV_VERSION=<ruby>`, then `rbenv rehash`), as Salt's `rvm.do`, `rbenv.do` and
 * `rbenv.do_with_ruby` do. Those two answer `false` when gem fails; plain gem raises with
 * gem's stderr.
 */
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { passwdByName } from './_passwd-db.js';
import { which } from './_which.js';

/** The keywords every gem function takes: which Ruby, which user, which gem program. */
export interface GemTarget {
  ruby?: string | null;
  runas?: string | null;
  gem_bin?: string | null;
}

type RunAll = { retcode: number; stdout: string; stderr: string };

/** `os.path.expanduser`: `~` or `~user` at the start becomes the home (an unknown user's stays). */
async function expandUser(p: string): Promise<string> {
  const m = /^~([^/]*)(.*)$/s.exec(p);
  if (!m) return p;
  const home = m[1] ? (await passwdByName(m[1]))?.home : (process.env.HOME ?? '/root');
  return home === undefined ? p : home + (m[2] as string);
}

/** Salt's `_get_rvm_location`: the user's `~/.rvm/bin/rvm` when it exists, else the system-wide one. */
async function rvmBin(runas: string | null | undefined): Promise<string> {
  if (runas) {
    const own = await expandUser(`~${runas}/.rvm/bin/rvm`);
    if (which(own)) return own;
  }
  return '/usr/local/rvm/bin/rvm';
}

/** Salt's `_rbenv_path`: option `rbenv.root`, else `/usr/local/rbenv` (root) or `~user/.rbenv`. */
async function rbenvRoot(ctx: ExecContext, runas: string | null | undefined): Promise<string> {
  const opt = await ctx.call('config.option', ['rbenv.root']);
  const root =
    typeof opt === 'string' && opt
      ? opt
      : runas && runas !== 'root'
        ? `~${runas}/.rbenv`
        : '/usr/local/rbenv';
  return expandUser(root);
}

async function runAll(ctx: ExecContext, argv: string[], kw: Record<string, unknown>): Promise<RunAll> {
  return (await ctx.call('cmd.run_all', [argv], { python_shell: false, ...kw })) as RunAll;
}

async function viaRvm(ctx: ExecContext, cmdline: string[], t: GemTarget): Promise<string | false> {
  const opt = t.runas ?? (await ctx.call('config.option', ['rvm.runas']));
  const runas = typeof opt === 'string' && opt ? opt : null;
  const rvm = await rvmBin(runas);
  if (!which(rvm)) return false;
  const r = await runAll(ctx, [rvm, t.ruby || 'default', 'do', ...cmdline], { runas });
  return r.retcode === 0 ? r.stdout : false;
}

async function viaRbenv(
  ctx: ExecContext,
  root: string,
  cmdline: string[],
  t: GemTarget,
): Promise<string | false> {
  const env: Record<string, string> = { PATH: `${path.join(root, 'shims')}:${process.env.PATH ?? ''}` };
  if (t.ruby) env.RBENV_VERSION = t.ruby;
  const r = await runAll(ctx, cmdline, { runas: t.runas ?? null, env });
  if (r.retcode !== 0) return false;
  await runAll(ctx, [path.join(root, 'bin', 'rbenv'), 'rehash'], {
    runas: t.runas ?? null,
    env: { RBENV_ROOT: root },
  });
  return r.stdout;
}

/** Salt's `rvm.is_installed` or `rbenv.is_installed`: whether either program is there for `runas`. */
export async function rubyManagerInstalled(
  ctx: ExecContext,
  runas: string | null | undefined,
): Promise<boolean> {
  if (which(await rvmBin(runas))) return true;
  return which(path.join(await rbenvRoot(ctx, runas), 'bin', 'rbenv')) !== null;
}

/** Runs `gem <command>` as Salt's `_gem` does: gem's stdout, `false` from RVM/rbenv on failure. */
export async function runGem(ctx: ExecContext, command: string[], t: GemTarget): Promise<string | false> {
  const cmdline = [t.gem_bin || 'gem', ...command];
  if (!t.gem_bin) {
    if (which(await rvmBin(t.runas))) return viaRvm(ctx, cmdline, t);
    const root = await rbenvRoot(ctx, t.runas);
    if (which(path.join(root, 'bin', 'rbenv'))) return viaRbenv(ctx, root, cmdline, t);
  }
  const r = await runAll(ctx, cmdline, { runas: t.runas ?? null });
  if (r.retcode === 0) return r.stdout;
  throw new SALT_ERR_EXEC_COMMAND(r.stderr);
}
