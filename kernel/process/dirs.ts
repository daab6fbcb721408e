/**
 * Start-up check of the daemon's directories (cachedir, pki_dir, sock_dir, log dir...):
 * each is created if missing and proved writable with a probe file, so a daemon refuses to
 * start with a clear message instead of failing later in a child.
 */

import { randomBytes } from 'node:crypto';
import { chmod, mkdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SALT_ERR_PROCESS_DIR } from '../errors.js';
import { errnoCode } from '../guards.js';

/** A directory the daemon needs; `mode` applies when the directory is created. */
export interface DirEntry {
  path: string;
  mode?: number;
}

const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a component of the path is not a directory',
  EEXIST: 'exists and is not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'path too long',
  ELOOP: 'too many symbolic links',
  EIO: 'input/output error',
};

function dirError(path: string, action: string, err: unknown): InstanceType<typeof SALT_ERR_PROCESS_DIR> {
  const errno = errnoCode(err);
  const reason = errno ? `${REASONS[errno] ?? 'error'} (${errno})` : String(err);
  return new SALT_ERR_PROCESS_DIR(path, `${action}: ${reason}`, {
    cause: err,
    details: { path, errno, action },
  });
}

async function ensureDir(entry: DirEntry): Promise<void> {
  const { path, mode } = entry;
  let created: string | undefined;
  try {
    created = await mkdir(path, { recursive: true }); // parents keep the umask's mode (Salt's makedirs)
  } catch (err) {
    throw dirError(path, 'cannot create directory', err);
  }
  try {
    const st = await stat(path);
    if (!st.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (err) {
    throw dirError(path, 'cannot use directory', err);
  }
  // the mode goes on the directory itself only, exactly (mkdir's would pass through the umask)
  if (created !== undefined && mode !== undefined) {
    try {
      await chmod(path, mode);
    } catch (err) {
      throw dirError(path, 'cannot set directory mode', err);
    }
  }
  const probe = join(path, `.tsalt-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(probe, '', { flag: 'wx', mode: 0o600 });
  } catch (err) {
    throw dirError(path, 'directory is not writable', err);
  }
  await unlink(probe).catch(() => {});
}

/**
 * Creates each directory (like `mkdir -p`) and checks it is writable. Throws
 * SALT_ERR_PROCESS_DIR naming the path and the reason (permission denied, a path component
 * is a regular file, read-only file system...) for the first one that is unusable.
 */
export async function ensureDirs(entries: readonly DirEntry[]): Promise<void> {
  for (const entry of entries) {
    await ensureDir(entry);
  }
}
