/**
 * The minion side of Salt's `salt-cp`, merged into `modules/cp.ts`: `cp.recv` (whole files in
 * one publish) and `cp.recv_chunked` (base64 chunks, gzip-compressed unless told otherwise,
 * the first one creating the file and setting its mode), and Salt's `cp.cache_dest`: where a
 * URL's copy lands in the minion's cache. Returns are Salt 3006's.
 */
import { createHash } from 'node:crypto';
import { chmod, mkdir, open, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { RetcodeResult } from '../kernel/index.js';
import { pyNormpath } from './_file-fns-misc.js';
import { pyOsError } from './_py-oserror.js';

/** Salt's `salt.utils.path.join`: each part normalized, later parts' leading `/` dropped, the whole normalized. */
function saltJoin(...parts: string[]): string {
  const [root, ...rest] = parts.map(pyNormpath);
  let out = root!;
  for (const p of rest.map((x) => x.replace(/^\/+/, '')))
    out = out === '' || out.endsWith('/') ? out + p : `${out}/${p}`;
  return pyNormpath(out);
}

/** Salt's file client `cache_dest`: the cache path of `url` in `saltenv` (a local path as it is). */
export function cacheDest(cachedir: string, url: string, saltenv: string): string {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase() ?? '';
  if (scheme === '') return url;
  if (scheme === 'salt') {
    let path = url.slice('salt://'.length);
    let env = saltenv;
    if (path.includes('?env=')) path = path.split('?env=')[0]!;
    else if (path.includes('?saltenv=')) {
      const at = path.indexOf('?saltenv=');
      env = path.slice(at + '?saltenv='.length) || saltenv;
      path = path.slice(0, at);
    }
    return saltJoin(cachedir, 'files', env, path.replace(/^[|/]+/, ''));
  }
  const rest = url.slice(scheme.length + 1);
  let netloc = '';
  let tail = rest;
  if (rest.startsWith('//')) {
    const end = rest.slice(2).search(/[/?#]/);
    netloc = end < 0 ? rest.slice(2) : rest.slice(2, end + 2);
    tail = end < 0 ? '' : rest.slice(end + 2);
  }
  tail = tail.split('#')[0]!;
  const q = tail.indexOf('?');
  const [path, query] = q < 0 ? [tail, ''] : [tail.slice(0, q), tail.slice(q + 1)];
  netloc = netloc.split('@').at(-1)!;
  if (/:\d+$/.test(netloc)) netloc = netloc.replaceAll(':', '');
  let fileName = query ? `${path}-${query}` : path;
  const root = saltJoin(cachedir, 'extrn_files', saltenv, netloc);
  const full = pyNormpath(`${root}/${fileName}`);
  if (full !== root && !full.startsWith(`${root}/`)) return 'Invalid path';
  if (fileName.length > 255) fileName = createHash('sha256').update(fileName).digest('hex');
  return saltJoin(cachedir, 'extrn_files', saltenv, netloc, fileName);
}

const isDir = (p: string) =>
  stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );

/** Salt's `cp.recv`: each file written to (or into) `dest`; `{path: written}` or "Destination unavailable". */
export async function recv(
  files: Record<string, unknown>,
  dest: string,
): Promise<Record<string, boolean> | string> {
  const ret: Record<string, boolean> = {};
  for (const [path, data] of Object.entries(files)) {
    let final: string;
    const destIsDir = await isDir(dest);
    if (basename(path) === basename(dest) && !destIsDir) final = dest;
    else if (destIsDir) final = join(dest, basename(path));
    else if (await isDir(dirname(dest))) final = dest;
    else return 'Destination unavailable';
    try {
      await writeFile(final, String(data));
      ret[final] = true;
    } catch {
      ret[final] = false;
    }
  }
  return ret;
}

/** A failure of `recv_chunked`: its text, with the job's retcode 1 (Salt's `__context__["retcode"]`). */
const failed = (msg: string) => new RetcodeResult(msg, 1);

/** Salt's `cp.recv_chunked`: one chunk of a file salt-cp sends; `true`, or why not. */
export async function recvChunked(
  dest: string,
  chunk: string | null | undefined,
  append: boolean,
  compressed: boolean,
  mode: number | null | undefined,
): Promise<true | string | RetcodeResult<string>> {
  if (chunk === null || chunk === undefined) {
    // an empty folder salt-cp copies: made with its parents
    try {
      await mkdir(dest, { recursive: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return failed(pyOsError(err, dest));
      if (
        await stat(dest).then(
          (s) => s.isFile(),
          () => false,
        )
      )
        return 'Path exists and is a file';
    }
    return true;
  }
  const raw = Buffer.from(chunk, 'base64');
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(dest, append ? 'a' : 'w');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return failed(pyOsError(err, dest));
    try {
      await mkdir(dirname(dest), { recursive: true });
    } catch (mkErr) {
      return failed(pyOsError(mkErr, dirname(dest)));
    }
    fh = await open(dest, append ? 'a' : 'w');
  }
  try {
    await fh.write(compressed ? gunzipSync(raw) : raw);
  } catch (err) {
    return failed(pyOsError(err, dest));
  } finally {
    await fh.close();
  }
  if (!append && mode !== null && mode !== undefined) {
    try {
      await chmod(dest, mode & 0o7777);
    } catch (err) {
      return failed(pyOsError(err, dest));
    }
  }
  return true;
}
