/**
 * `cp.push` and `cp.push_dir` (Salt's `salt/modules/cp.py`): a minion file sent to the
 * master in `file_buffer_size` chunks with `_file_recv`, stored there under
 * `<cachedir>/minions/<id>/files/<path>`. `False` for a relative path, `..`, a missing file or
 * the master's refusal (`file_recv` off, `file_recv_max_size` exceeded).
 */
import { open, readdir, realpath, rm, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, normalize, sep } from 'node:path';
import type { FileRequest } from './_file-channel.js';
import { fnmatch } from './_fnmatch.js';

export interface PushOptions {
  id: string;
  bufferSize: number;
  request: FileRequest;
  log: { error(obj: object | string, msg?: string): void };
}

export async function pushFile(
  o: PushOptions,
  rawPath: string,
  keepSymlinks: boolean,
  uploadPath: string | null | undefined,
  removeSource: boolean,
): Promise<unknown> {
  if (rawPath.includes('../') || !isAbsolute(rawPath)) return false;
  const path = keepSymlinks ? rawPath : await realpath(rawPath).catch(() => rawPath);
  if (!(await stat(path).catch(() => undefined))?.isFile()) return false;
  let loadPath: string;
  if (uploadPath) {
    if (uploadPath.includes('../')) return false;
    loadPath = uploadPath.replace(/^\/+/, '');
  } else loadPath = path.replace(/^\/+/, '');
  const parts = normalize(loadPath).split(sep).filter(Boolean);
  const size = (await stat(path)).size;
  const fh = await open(path, 'r');
  try {
    let loc = 0;
    let sent = false;
    const buf = Buffer.allocUnsafe(o.bufferSize);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, o.bufferSize, loc);
      if (bytesRead === 0 && sent) break;
      const reply = await o.request({
        cmd: '_file_recv',
        id: o.id,
        path: parts,
        size,
        loc,
        data: Buffer.from(buf.subarray(0, bytesRead)),
      });
      if (!reply) {
        o.log.error(
          "cp.push Failed transfer failed. Ensure master has 'file_recv' set to 'True' and that the file is not larger than the 'file_recv_size_max' setting on the master.",
        );
        return reply;
      }
      sent = true;
      loc += bytesRead;
    }
  } finally {
    await fh.close();
  }
  if (removeSource) await rm(path, { force: true });
  return true;
}

export async function pushDir(
  o: PushOptions,
  rawPath: string,
  glob: string | null | undefined,
  uploadPath: string | null | undefined,
): Promise<unknown> {
  if (rawPath.includes('../') || !isAbsolute(rawPath)) return false;
  const path = await realpath(rawPath).catch(() => rawPath);
  const st = await stat(path).catch(() => undefined);
  if (st?.isFile()) return pushFile(o, path, false, uploadPath, false);
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile()) files.push(full);
    }
  };
  await walk(path);
  const chosen = glob ? files.filter((f) => fnmatch(basename(f), glob)) : files;
  if (chosen.length === 0) return false;
  for (const file of chosen) {
    const target =
      uploadPath && file.startsWith(path)
        ? join(sep, uploadPath.replace(/^\/+|\/+$/g, ''), file.slice(path.length).replace(/^\/+/, ''))
        : uploadPath;
    const ret = await pushFile(o, file, false, target, false);
    if (!ret) return ret;
  }
  return true;
}
