/**
 * Atomic small-file writes for key material: the content goes to a temporary file in the same
 * directory, created exclusively with its final mode, flushed, then renamed over the target.
 * Readers therefore see either the old file or the complete new one, never a partial key.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Writes `data` to `path` atomically with file mode `mode` (applied exactly, whatever the umask). */
export async function writeFileAtomic(path: string, data: string | Buffer, mode: number): Promise<void> {
  const tmp = tempPathFor(path);
  const fh = await open(tmp, 'wx', mode);
  try {
    try {
      await fh.chmod(mode);
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** Synchronous {@link writeFileAtomic}. */
export function writeFileAtomicSync(path: string, data: string | Buffer, mode: number): void {
  const tmp = tempPathFor(path);
  const fd = openSync(tmp, 'wx', mode);
  try {
    try {
      fchmodSync(fd, mode);
      const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // the temporary file is already gone
    }
    throw err;
  }
}

/** Reads a UTF-8 file, or `undefined` when it does not exist. */
export async function readFileIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
