/**
 * Python's text for an OSError from a file call (`[Errno 2] No such file or directory: '/x'`),
 * which Salt's modules put inside their error strings.
 */
import os from 'node:os';
import { pyRepr } from '../kernel/util.js';

const STRERROR: Readonly<Record<string, string>> = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  EEXIST: 'File exists',
  EROFS: 'Read-only file system',
  ENOSPC: 'No space left on device',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
};

/** Python's `errno` and `strerror` of a Node fs error, or undefined for one this file does not know. */
export function pyStrerror(err: unknown): { errno: number; strerror: string } | undefined {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const num = os.constants.errno[code as keyof typeof os.constants.errno];
  const text = STRERROR[code];
  return num === undefined || !text ? undefined : { errno: num, strerror: text };
}

/** `[Errno <n>] <strerror>: '<path>'` for a Node fs error, as Python's `str(OSError)`. */
export function pyOsError(err: unknown, path: string): string {
  const py = pyStrerror(err);
  return py ? `[Errno ${py.errno}] ${py.strerror}: ${pyRepr(path)}` : (err as Error).message;
}
