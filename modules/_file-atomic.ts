/**
 * Salt's `salt.utils.atomicfile.atomic_open` for the file edits that use it (`file.line`,
 * `file.blockreplace`, `file.replace` when it appends or prepends): the new text goes to a
 * hidden temp file beside the target, takes the old file's mode and owner, and is renamed over
 * it. The file therefore gets a new inode, as in Salt: a hard link to the old file keeps the
 * old text and stops being a link (`file.hardlink` then finds "File exists"). Unlike Salt, a
 * symlink is followed and its target replaced, so the link itself survives.
 */
import { randomBytes } from 'node:crypto';
import { chmod, chown, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Replaces the file at `path` (a symlink's target) with `data` through a temp file and a rename. */
export async function writeReplacing(path: string, data: string | Buffer): Promise<void> {
  const real = await realpath(path).catch(() => path);
  const tmp = join(dirname(real), `.___atomic_write${basename(real)}${randomBytes(4).toString('hex')}`);
  const fh = await open(tmp, 'wx');
  try {
    try {
      await fh.writeFile(data);
    } finally {
      await fh.close();
    }
    const old = await stat(real).catch(() => undefined);
    if (old?.isFile()) {
      await chmod(tmp, old.mode & 0o7777);
      await chown(tmp, old.uid, old.gid);
    }
    await rename(tmp, real);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}
