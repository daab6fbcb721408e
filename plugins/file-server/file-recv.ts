/**
 * `_file_recv` (Salt's `AESFuncs._file_recv`): a minion's `cp.push` chunk, written under
 * `<cachedir>/minions/<id>/files/<path>`. Off unless `file_recv`; a file may not grow past
 * `file_recv_max_size` MiB; the path may not leave that folder. Salt answers `False` to every
 * refusal; tsalt also logs it with its code.
 */
import { mkdir, open, realpath } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { FileServerLog } from './backend-kind.js';
import { SALT_ERR_FILE_RECV } from './errors.js';
import type { FileServerOptions } from './options.js';
import { isInside } from './paths.js';

/** Salt's `valid_id`: no path separators, no NUL, not `.`/`..`. */
function validId(id: string): boolean {
  return id !== '' && id !== '.' && id !== '..' && !/[/\\\0]/.test(id);
}

function asBytes(data: unknown): Buffer | undefined {
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  return undefined;
}

export async function fileRecv(
  opts: FileServerOptions,
  load: Readonly<Record<string, unknown>>,
  minionId: string | undefined,
  log: FileServerLog,
): Promise<boolean> {
  const id = typeof load.id === 'string' ? load.id : (minionId ?? '');
  const refuse = (why: string): false => {
    const err = new SALT_ERR_FILE_RECV(id || '?', why);
    log.warn({ code: err.code }, err.message);
    return false;
  };
  if (!('path' in load) || !('loc' in load) || !id) return false;
  if (!Array.isArray(load.path) || !load.path.every((p) => typeof p === 'string')) return false;
  if (!opts.file_recv) return refuse('file_recv is off on the master');
  if (!validId(id) || (minionId !== undefined && id !== minionId)) return refuse('invalid minion id');
  const loc = Number(load.loc);
  if (!Number.isSafeInteger(loc) || loc < 0) return refuse('invalid file position');
  const data = asBytes(load.data);
  if (!data) return refuse('no data');
  const max = 1024 * 1024 * opts.file_recv_max_size;
  if (data.length + loc > max) {
    return refuse(`file_recv_max_size (${opts.file_recv_max_size} MiB) exceeded by ${load.path.join('/')}`);
  }
  const parts = load.path as string[];
  const rel = posix.normalize(parts.join('/'));
  if (parts.includes('..') || posix.isAbsolute(rel) || rel.startsWith('../') || rel === '..' || rel === '.') {
    return refuse(`path ${parts.join('/')} leaves the minion's files folder`);
  }
  const top = join(opts.cachedir, 'minions', id, 'files');
  const dest = join(top, rel);
  if (!isInside(top, dest)) return refuse(`path ${rel} leaves the minion's files folder`);
  await mkdir(posix.dirname(dest), { recursive: true, mode: 0o700 });
  // a symlink planted under the folder may not carry the write elsewhere
  const realTop = await realpath(top);
  const realDir = await realpath(posix.dirname(dest));
  if (!isInside(realTop, realDir)) return refuse(`path ${rel} leaves the minion's files folder`);
  const fh = await open(dest, loc === 0 ? 'w' : 'r+', 0o600);
  try {
    await fh.write(data, 0, data.length, loc);
  } finally {
    await fh.close();
  }
  return true;
}
