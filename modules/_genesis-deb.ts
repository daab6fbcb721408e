/**
 * `genesis.bootstrap`'s Debian path (Salt's `_bootstrap_deb`): `debootstrap --foreign` into the
 * root, the static qemu copied in, then the second stage and `dpkg --configure -a` in a chroot,
 * each through `cmd.run` as Salt's. Without debootstrap (or with a static_qemu that is not
 * executable) it logs Salt's error and does nothing.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyTypeName } from '../kernel/util.js';
import { shlexQuote } from './_shlex.js';
import { which } from './_which.js';

/** The Debian-specific arguments of `genesis.bootstrap`. */
export interface DebOptions {
  arch: unknown;
  flavor: unknown;
  repoUrl: unknown;
  staticQemu: unknown;
  pkgs: unknown;
  excludePkgs: unknown;
}

/** Python's `shlex.quote`, which refuses anything but text. */
function quote(v: unknown): string {
  if (typeof v !== 'string')
    // a TypeError in the function: salt-call reports it as invalid arguments, as Salt's
    throw new SALT_ERR_INVOCATION(
      `expected string or bytes-like object, got '${pyTypeName(v).slice(8, -2)}'`,
    );
  return shlexQuote(v);
}

const joined = (v: unknown): unknown => (Array.isArray(v) ? v.join(',') : v);

function isExecutable(path: unknown): boolean {
  try {
    if (typeof path !== 'string' || !statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const CHROOT_ENV = {
  DEBIAN_FRONTEND: 'noninteractive',
  DEBCONF_NONINTERACTIVE_SEEN: 'true',
  LC_ALL: 'C',
  LANGUAGE: 'C',
  LANG: 'C',
  PATH: '/sbin:/bin:/usr/bin',
};

/** Bootstraps a Debian root with debootstrap (false, as Salt's, when a tool is missing). */
export async function bootstrapDeb(
  ctx: ExecContext,
  root: string,
  o: DebOptions,
): Promise<false | undefined> {
  const repoUrl = o.repoUrl ?? 'http://ftp.debian.org/debian/';
  if (!which('debootstrap')) {
    ctx.log.error('Required tool debootstrap is not installed.');
    return false;
  }
  if (o.staticQemu && !isExecutable(o.staticQemu)) {
    ctx.log.error({ path: o.staticQemu }, 'Required tool qemu not present/readable');
    return false;
  }
  const args = ['debootstrap', '--foreign', '--arch', quote(o.arch)];
  const pkgs = joined(o.pkgs);
  const exclude = joined(o.excludePkgs);
  if (pkgs) args.push('--include', quote(pkgs));
  if (exclude) args.push('--exclude', quote(exclude));
  args.push(quote(o.flavor), quote(root), quote(repoUrl));
  await ctx.call('cmd.run', [args], { python_shell: false });
  if (o.staticQemu) await ctx.call('cmd.run', [`cp ${quote(o.staticQemu)} ${quote(root)}/usr/bin/`]);
  await ctx.call('cmd.run', [`chroot ${quote(root)} /debootstrap/debootstrap --second-stage`], {
    env: CHROOT_ENV,
  });
  await ctx.call('cmd.run', [`chroot ${quote(root)} dpkg --configure -a`], { env: CHROOT_ENV });
  return undefined;
}
