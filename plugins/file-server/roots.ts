/**
 * The master's file server, `roots` backend only (Salt's `salt/fileserver/roots.py` behind
 * `salt/fileserver/__init__.py` `Fileserver`): the aes commands `_file_envs`, `_file_list`,
 * `_file_hash` and `_serve_file` over `file_roots`.
 *
 * Paths are relative to a root: absolute paths and `..` are refused, and a file (or a
 * directory on the way to it) whose real path leaves its root is neither listed nor served,
 * whatever it is linked from. Salt follows such links when `fileserver_followsymlinks` is on;
 * tsalt never does.
 */
import { createHash } from 'node:crypto';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { posix } from 'node:path';

/** The config the file server reads. */
export interface FileServerConfig {
  readonly file_roots: Readonly<Record<string, readonly string[]>>;
  readonly file_buffer_size: number;
  readonly hash_type: string;
}

/** Salt's `fnd`: the file found and its path relative to the root. */
interface Found {
  path: string;
  rel: string;
}

const SALT_SCHEME = 'salt://';

/** The roots of `saltenv` as absolute paths. */
function rootsOf(config: FileServerConfig, saltenv: string): string[] {
  const roots = Object.hasOwn(config.file_roots, saltenv) ? config.file_roots[saltenv] : undefined;
  return (roots ?? []).map((r) => posix.resolve(r));
}

function isInside(root: string, full: string): boolean {
  const rel = posix.relative(root, full);
  return rel === '' || (!rel.startsWith('../') && rel !== '..' && !posix.isAbsolute(rel));
}

async function realOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

/**
 * Salt's `salt.utils.url.parse` as `Fileserver.find_file` uses it: `salt://` dropped, a
 * `?saltenv=` query overriding the environment (not for `|`-escaped paths).
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

/** Salt's `find_file`: the first root of `saltenv` that holds `path` as a regular file. */
export async function findFile(
  config: FileServerConfig,
  rawPath: string,
  rawEnv: string,
): Promise<Found | undefined> {
  const { path, saltenv } = parseFilePath(rawPath, rawEnv);
  if (path === '' || posix.isAbsolute(path) || path.includes('\0')) return undefined;
  if (path.split('/').includes('..')) return undefined;
  const rel = posix.normalize(path);
  if (rel.startsWith('../') || rel === '..' || rel === '.') return undefined;
  for (const root of rootsOf(config, saltenv)) {
    const full = posix.join(root, rel);
    if (!isInside(root, full)) continue;
    const realRoot = await realOrUndefined(root);
    const realFull = await realOrUndefined(full);
    if (!realRoot || !realFull || !isInside(realRoot, realFull)) continue;
    try {
      if ((await stat(realFull)).isFile()) return { path: realFull, rel };
    } catch {
      // gone between the realpath and the stat: try the next root
    }
  }
  return undefined;
}

/** `_file_envs`: the saltenvs, sorted. */
export function fileEnvs(config: FileServerConfig): string[] {
  return Object.keys(config.file_roots).sort();
}

/** Every file under `root` whose real path stays inside it, as paths relative to `root`. */
async function walkRoot(root: string): Promise<string[]> {
  const realRoot = await realOrUndefined(root);
  if (!realRoot) return [];
  const out: string[] = [];
  const seen = new Set<string>([realRoot]);
  const walk = async (dir: string, relDir: string): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const abs = posix.join(dir, name);
      const rel = relDir ? `${relDir}/${name}` : name;
      const real = await realOrUndefined(abs);
      if (!real || !isInside(realRoot, real)) continue;
      let st: Awaited<ReturnType<typeof stat>>;
      try {
        st = await stat(real);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        // a link back up the tree would walk forever
        if (seen.has(real)) continue;
        seen.add(real);
        await walk(abs, rel);
        seen.delete(real);
      } else if (st.isFile()) out.push(rel);
    }
  };
  await walk(realRoot, '');
  return out;
}

/**
 * `_file_list`: every file of every root of `saltenv`, relative to its root, de-duplicated and
 * sorted; with `prefix`, only the paths that start with it (slashes stripped), as Salt filters.
 */
export async function fileList(
  config: FileServerConfig,
  load: Readonly<Record<string, unknown>>,
): Promise<string[]> {
  if (typeof load.saltenv !== 'string' && typeof load.saltenv !== 'number') return [];
  const saltenv = String(load.saltenv);
  const files = new Set<string>();
  for (const root of rootsOf(config, saltenv)) for (const f of await walkRoot(root)) files.add(f);
  const prefix = typeof load.prefix === 'string' ? load.prefix.replace(/^\/+|\/+$/g, '') : '';
  const all = [...files];
  return (prefix ? all.filter((f) => f.startsWith(prefix)) : all).sort();
}

/** Hex digest of a file with Salt's `hash_type`. */
async function hashFile(path: string, hashType: string): Promise<string> {
  const hash = createHash(hashType);
  const fh = await open(path, 'r');
  try {
    for await (const chunk of fh.createReadStream()) hash.update(chunk as Buffer);
  } finally {
    await fh.close();
  }
  return hash.digest('hex');
}

/**
 * `_file_hash`: `{hash_type, hsum}` of the file, `''` when the load lacks `path`/`saltenv` or
 * the file is not served (Salt's `Fileserver.file_hash`).
 */
export async function fileHash(
  config: FileServerConfig,
  load: Readonly<Record<string, unknown>>,
): Promise<{ hash_type: string; hsum: string } | ''> {
  if (typeof load.path !== 'string' || !('saltenv' in load)) return '';
  const fnd = await findFile(config, load.path, String(load.saltenv));
  if (!fnd) return '';
  try {
    return { hash_type: config.hash_type, hsum: await hashFile(fnd.path, config.hash_type) };
  } catch {
    return '';
  }
}

/** A `_serve_file` reply: one chunk of the file and its path relative to the root. */
export interface ServedChunk {
  /** `''` only when nothing is served; an empty buffer at the end of the file, as Salt's `b''`. */
  data: Buffer | '';
  dest: string;
}

/**
 * `_serve_file`: `file_buffer_size` bytes of the file from offset `loc` (no bytes at the
 * end); `{data: '', dest: ''}` when the load is incomplete or the file is not served.
 */
export async function serveFile(
  config: FileServerConfig,
  load: Readonly<Record<string, unknown>>,
): Promise<ServedChunk> {
  const none: ServedChunk = { data: '', dest: '' };
  if (typeof load.path !== 'string' || !('loc' in load) || !('saltenv' in load)) return none;
  const loc = Number(load.loc);
  if (!Number.isSafeInteger(loc) || loc < 0) return none;
  const fnd = await findFile(config, load.path, String(load.saltenv));
  if (!fnd) return none;
  const size = Math.max(1, config.file_buffer_size);
  try {
    const fh = await open(fnd.path, 'r');
    try {
      const buf = Buffer.alloc(size);
      const { bytesRead } = await fh.read(buf, 0, size, loc);
      return { data: buf.subarray(0, bytesRead), dest: fnd.rel };
    } finally {
      await fh.close();
    }
  } catch {
    return none;
  }
}
