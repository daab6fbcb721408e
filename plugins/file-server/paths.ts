/**
 * Paths as the file server reads them (Salt's `salt/utils/url.py` `parse`/`create` and the
 * checks of `Fileserver.find_file`): `salt://path?saltenv=env`, `|`-escaped paths, and the
 * refusal of absolute paths and `..`.
 */
import { posix } from 'node:path';

export const SALT_SCHEME = 'salt://';

/**
 * `salt://` dropped, a `?saltenv=` query overriding the environment (not for `|`-escaped
 * paths).
 */
export function parseFilePath(raw: string, saltenv: string): { path: string; saltenv: string } {
  let path = raw.startsWith(SALT_SCHEME) ? raw.slice(SALT_SCHEME.length) : raw;
  let env = saltenv;
  if (path.startsWith('|')) return { path: path.slice(1), saltenv: env };
  const q = path.indexOf('?');
  if (q >= 0) {
    for (const comp of path.slice(q + 1).split('&')) {
      const eq = comp.indexOf('=');
      if (eq > 0 && comp.slice(0, eq) === 'saltenv') env = comp.slice(eq + 1);
    }
    path = path.slice(0, q);
  }
  return { path, saltenv: env };
}

/**
 * The normalized relative path, or why it is refused: absolute, empty, a NUL byte, or a `..`
 * component (`salt://../../etc/shadow`).
 */
export function cleanRelPath(path: string): { rel: string } | { refused: string } {
  if (path === '' || path === '.') return { refused: 'empty path' };
  if (path.includes('\0')) return { refused: 'NUL byte in path' };
  if (posix.isAbsolute(path) || /^[A-Za-z]:[\\/]/.test(path)) return { refused: 'absolute path' };
  if (path.split(/[\\/]/).includes('..')) return { refused: 'path leaves the file roots (..)' };
  const rel = posix.normalize(path).replace(/\/+$/, '');
  if (rel === '' || rel === '.' || rel.startsWith('../')) return { refused: 'path leaves the file roots' };
  return { rel };
}

/** Whether `full` is `root` or below it (lexically). */
export function isInside(root: string, full: string): boolean {
  const rel = posix.relative(root, full);
  return rel === '' || (!rel.startsWith('../') && rel !== '..' && !posix.isAbsolute(rel));
}

/** The `salt://` URL of a relative path, `|`-escaped when it holds a `?` (Salt's `url.create`). */
export function saltUrl(rel: string, saltenv?: string): string {
  const escaped = rel.includes('?') ? `|${rel}` : rel;
  return saltenv ? `${SALT_SCHEME}${escaped}?saltenv=${saltenv}` : `${SALT_SCHEME}${escaped}`;
}
