/**
 * The package-database refresh flag of a state run (Salt's `salt.utils.pkg.rtag`,
 * `write_rtag`, `check_refresh` and `pkg.mod_init`): the first `pkg.installed`/`pkg.latest`
 * of a run finds `<cachedir>/pkg_refresh` and refreshes (apt-get update) before installing,
 * unless `refresh: False`; `pkg.refresh_db` removes the flag, so a run refreshes once.
 */
import { closeSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import { pyTruthy } from '../kernel/util.js';

/** The flag file: `<cachedir>/pkg_refresh`, or undefined when the minion has no cachedir. */
export function rtagPath(opts: Readonly<Record<string, unknown>>): string | undefined {
  return typeof opts.cachedir === 'string' && opts.cachedir
    ? path.join(opts.cachedir, 'pkg_refresh')
    : undefined;
}

/**
 * Salt's `pkg.mod_init`: the state system calls it once per run for a module that has one,
 * with the first low chunk of that module; for `installed`/`latest` it writes the flag.
 */
export function pkgModInit(
  opts: Readonly<Record<string, unknown>>,
  low: Readonly<Record<string, unknown>>,
): boolean {
  if (low.fun !== 'installed' && low.fun !== 'latest') return false;
  const file = rtagPath(opts);
  if (file && !existsSync(file)) {
    try {
      closeSync(openSync(file, 'w'));
    } catch {
      // no cachedir yet: no flag, no refresh
    }
  }
  return true;
}

/** Salt's `check_refresh`: refresh when asked, or when the flag is there and refresh is not False. */
export function checkRefresh(opts: Readonly<Record<string, unknown>>, refresh: unknown): boolean {
  if (refresh !== undefined && refresh !== null && pyTruthy(refresh)) return true;
  const file = rtagPath(opts);
  return refresh !== false && file !== undefined && existsSync(file);
}
