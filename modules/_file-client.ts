/**
 * The minion's file client (Salt's `salt/fileclient.py` `Client` + `RemoteClient`): fetches
 * `salt://` files into the cache `<cachedir>/files/<saltenv>/<path>` (not again when the
 * cached copy's hash matches the master's), `http(s)://` into
 * `<cachedir>/extrn_files/<saltenv>/<host>/<path>`, copies local files to
 * `<cachedir>/localfiles/`, and lists what the master serves. Returns what Salt's returns:
 * a path, `''`/`False` when there is nothing, lists of paths.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, posix } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createError } from '../kernel/index.js';
import type { FileRequest } from './_file-channel.js';
import { fetchOnce } from './_http-fetch.js';
import type { HttpLimits } from './_http-limits.js';
import type { HttpProxy } from './_http-proxy.js';

/** A file client failure that Salt raises as `MinionError`/`CommandExecutionError`. */
export const SALT_ERR_FILE_CLIENT = createError('SALT_ERR_FILE_CLIENT', (detail: string) => detail);

function clientError(message: string): Error {
  return new SALT_ERR_FILE_CLIENT(message);
}

export type HashDict = { hsum: string; hash_type: string };

export interface FileClientOptions {
  cachedir: string;
  hashType: string;
  request: FileRequest;
  /** Salt's `http_*` limits for `http(s)://` URLs; none: no limit. */
  http?: HttpLimits;
  /** The forward proxy for a URL (Salt's `proxy_*`, `no_proxy`); none: direct. */
  proxy?: (url: string) => HttpProxy | null;
  log: { error(obj: object | string, msg?: string): void; debug(obj: object | string, msg?: string): void };
}

/** Salt's `url.split_env`: `salt://x?saltenv=dev` → `['salt://x', 'dev']`. */
export function splitEnv(url: string): [string, string | undefined] {
  if (!url.startsWith('salt://') || url.startsWith('salt://|')) return [url, undefined];
  const q = url.indexOf('?');
  if (q < 0) return [url, undefined];
  let env: string | undefined;
  for (const comp of url.slice(q + 1).split('&')) {
    const eq = comp.indexOf('=');
    if (eq > 0 && comp.slice(0, eq) === 'saltenv') env = comp.slice(eq + 1);
  }
  return [url.slice(0, q), env];
}

/** Salt's `_check_proto`: the path of a `salt://` URL; anything else is refused. */
function saltPath(url: string): string {
  if (!url.startsWith('salt://')) throw clientError(`Unsupported path: ${url}`);
  const rest = url.slice(7);
  if (rest.startsWith('|')) return rest.slice(1);
  const q = rest.indexOf('?');
  return q < 0 ? rest : rest.slice(0, q);
}

/** Salt's `url.create`. */
function saltUrl(rel: string): string {
  return `salt://${rel.includes('?') ? `|${rel}` : rel}`;
}

async function hashLocal(path: string, hashType: string): Promise<string> {
  const hash = createHash(hashType);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

async function isDir(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

function asBuffer(data: unknown): Buffer | undefined {
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  return undefined;
}

function strings(reply: unknown): string[] {
  return Array.isArray(reply) ? reply.filter((f): f is string => typeof f === 'string') : [];
}

/** A `_serve_file` reply. */
interface ServeReply {
  data?: unknown;
  dest?: unknown;
  gzip?: unknown;
}

/** `_serve_file` requests in flight at once while a file downloads. */
const WINDOW = 4;

/** A cache path may not leave its cache folder, whatever the master answers. */
function below(top: string, rel: string): string {
  const clean = posix.normalize(rel.replace(/^\/+/, ''));
  if (clean === '..' || clean.startsWith('../') || clean.split('/').includes('..')) {
    throw clientError(`refused to cache ${rel}: the path leaves ${top}`);
  }
  return join(top, clean);
}

export class FileClient {
  constructor(private readonly o: FileClientOptions) {}

  /** `<cachedir>/files/<saltenv>/<path>`, its folder made. */
  private async cacheLoc(rel: string, saltenv: string): Promise<string> {
    const dest = below(join(this.o.cachedir, 'files', below('', saltenv).replace(/^\//, '')), rel);
    await mkdir(dirname(dest), { recursive: true, mode: 0o700 });
    return dest;
  }

  /** Salt's `_extrn_path`: where a URL's download is cached (the port's `:` dropped: `host8080`). */
  extrnPath(url: URL, saltenv: string): string {
    const path = decodeURIComponent(url.pathname).replace(/^\/+/, '') || 'index.html';
    return below(join(this.o.cachedir, 'extrn_files', saltenv, url.host.replaceAll(':', '')), path);
  }

  /** `hash_and_stat_file`: the master's for `salt://`, else the local file's (`{}` when missing). */
  async hashAndStat(
    path: string,
    saltenv: string,
  ): Promise<[HashDict | Record<string, never> | '', unknown]> {
    if (!path.startsWith('salt://')) {
      if (!(await isFile(path))) return [{}, null];
      const st = await stat(path);
      return [
        { hsum: await hashLocal(path, this.o.hashType), hash_type: this.o.hashType },
        [st.mode, st.ino, st.dev, st.nlink, st.uid, st.gid, st.size, st.atimeMs, st.mtimeMs, st.ctimeMs].map(
          (n) => Math.floor(n / (n > 1e11 ? 1000 : 1)),
        ),
      ];
    }
    const reply = await this.o.request({ cmd: '_file_hash_and_stat', path: saltPath(path), saltenv });
    if (Array.isArray(reply)) return [reply[0] as HashDict | '', reply[1] ?? null];
    return [(reply ?? '') as HashDict | '', null];
  }

  /** `hash_file`: `{hsum, hash_type}`, `''` when the master does not serve it, `{}` for a missing local file. */
  async hashFile(path: string, saltenv: string): Promise<HashDict | Record<string, never> | ''> {
    if (!path.startsWith('salt://')) return (await this.hashAndStat(path, saltenv))[0];
    const reply = await this.o.request({ cmd: '_file_hash', path: saltPath(path), saltenv });
    return (reply && typeof reply === 'object' ? reply : '') as HashDict | '';
  }

  /**
   * Salt's `RemoteClient.get_file`: the local path, or `false` when the master does not serve
   * it or `dest`'s folder is missing without `makedirs`. An unchanged cached copy is kept.
   */
  async getFile(
    url: string,
    dest: string,
    makedirs: boolean,
    env: string,
    gzip?: number,
  ): Promise<string | false> {
    const [path, senv] = splitEnv(url);
    const saltenv = senv ?? env;
    const [hashServer] = await this.hashAndStat(path, saltenv);
    if (hashServer === '' || (typeof hashServer === 'object' && !('hsum' in hashServer))) return false;
    let target = dest;
    if (target && ((await isDir(target)) || target.endsWith('/')))
      target = join(target, basename(saltPath(path)));
    const check = target || (await this.cacheLoc(saltPath(path), saltenv));
    if (await isFile(check)) {
      const local = await hashLocal(check, hashServer.hash_type).catch(() => '');
      if (local === hashServer.hsum) return check;
    }
    if (target) {
      const dir = dirname(target);
      if (!(await isDir(dir))) {
        if (!makedirs) return false;
        await mkdir(dir, { recursive: true });
      }
    }
    const rel = saltPath(path);
    const load: Record<string, unknown> = { cmd: '_serve_file', path: rel, saltenv };
    if (gzip) load.gzip = Number(gzip);
    let out = target;
    let tmp: string | undefined;
    let fh: Awaited<ReturnType<typeof open>> | undefined;
    // After the first chunk gives the master's chunk size, up to WINDOW chunks are asked for
    // ahead (each at its own `loc`), so the round trips overlap; they are written in order.
    const ask = (loc: number) => this.o.request({ ...load, loc }) as Promise<ServeReply | null>;
    const ahead = new Map<number, Promise<ServeReply | null>>();
    let chunkSize = 0;
    let next = 0;
    let loc = 0;
    try {
      for (;;) {
        const pending = ahead.get(loc) ?? ask(loc);
        ahead.delete(loc);
        const reply = await pending;
        let data = asBuffer(reply?.data);
        const served = typeof reply?.dest === 'string' ? reply.dest : '';
        if (!data || served === '') {
          if (loc === 0) return false;
          break;
        }
        if (!fh) {
          out ||= await this.cacheLoc(served, saltenv);
          tmp = join(dirname(out), `.${basename(out)}.part-${process.pid}`);
          fh = await open(tmp, 'w', 0o600);
        }
        if (data.length === 0) break;
        if (reply?.gzip) data = gunzipSync(data);
        await fh.write(data);
        // the next chunk starts where the uncompressed file ends, as Salt's `fn_.tell()`
        loc += data.length;
        if (chunkSize === 0) chunkSize = data.length;
        // a short chunk is the file's end
        if (data.length < chunkSize) break;
        next = Math.max(next, loc);
        while (ahead.size < WINDOW && data.length === chunkSize) {
          ahead.set(next, ask(next));
          next += chunkSize;
        }
      }
      await Promise.allSettled(ahead.values());
      await fh?.close();
      fh = undefined;
      if (tmp && out) {
        if (await isDir(out)) await rm(out, { recursive: true, force: true });
        await rename(tmp, out);
      }
      return out || false;
    } finally {
      for (const p of ahead.values()) p.catch(() => undefined);
      await fh?.close();
      if (tmp) await rm(tmp, { force: true });
    }
  }

  /**
   * Salt's `Client.get_url`: `salt://` through {@link getFile}; `file://` and absolute paths
   * from the local disk; `http(s)://` downloaded. `dest === null` returns the contents.
   */
  async getUrl(
    url: string,
    dest: string | null,
    makedirs: boolean,
    saltenv: string,
  ): Promise<string | false> {
    if (url.startsWith('salt://')) {
      const got = await this.getFile(url, dest ?? '', makedirs, saltenv);
      if (got && dest === null) return readFile(got, 'utf8');
      return got;
    }
    let parsed: URL | undefined;
    try {
      parsed = isAbsolute(url) ? undefined : new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.protocol === 'file:') {
      const local = parsed ? decodeURIComponent(parsed.pathname) : url;
      if (!isAbsolute(local)) throw clientError(`Path '${local}' is not absolute`);
      if (dest === null) return (await isFile(local)) ? readFile(local, 'utf8') : '';
      if (!(await isFile(local))) return '';
      if (dest) {
        await copyFile(local, dest);
        return dest;
      }
      return local;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw clientError(`Unsupported scheme '${parsed.protocol.replace(/:$/, '')}' in ${url}`);
    }
    try {
      return await this.fetchUrl(url, parsed, dest, makedirs, saltenv);
    } catch (err) {
      if (err instanceof SALT_ERR_FILE_CLIENT) throw err;
      // Salt's words: `Error: <Python's socket error> reading <path>`
      throw clientError(`Error: ${(err as Error).message} reading ${parsed.pathname}`);
    }
  }

  /**
   * `url` fetched (through the proxy when one applies), following up to 5 redirects as Salt's
   * backends do. Node's own `fetch` is not used: it refuses the ports browsers block (9, 25,
   * 6666, ...), which Salt reaches.
   */
  private async fetchUrl(
    url: string,
    parsed: URL,
    dest: string | null,
    makedirs: boolean,
    saltenv: string,
  ): Promise<string | false> {
    let target = parsed.href;
    for (let hop = 0; ; hop += 1) {
      const res = await fetchOnce({
        url: target,
        method: 'GET',
        headers: {},
        body: null,
        auth: null,
        verifySsl: true,
        connectTimeoutMs: this.o.http?.connectTimeoutMs ?? 20_000,
        requestTimeoutMs: this.o.http?.requestTimeoutMs ?? 3_600_000,
        maxBody: this.o.http?.maxBody ?? Number.POSITIVE_INFINITY,
        proxy: this.o.proxy?.(target) ?? null,
      });
      const location = res.headers.Location;
      if ([301, 302, 303, 307, 308].includes(res.status) && location && hop < 5) {
        target = new URL(location, target).href;
        continue;
      }
      if (res.status < 200 || res.status >= 300)
        throw clientError(`HTTP error ${res.status} reading ${url}: ${res.reason}`);
      return this.keepBody(res.body, parsed, dest, makedirs, saltenv);
    }
  }

  /** Salt's end of `get_url`: the text (`dest === null`), or the body written where it belongs. */
  private async keepBody(
    body: Buffer,
    parsed: URL,
    dest: string | null,
    makedirs: boolean,
    saltenv: string,
  ): Promise<string | false> {
    if (dest === null) return body.toString('utf8');
    let target = dest || this.extrnPath(parsed, saltenv);
    if (dest && ((await isDir(dest)) || dest.endsWith('/')))
      target = join(dest, basename(parsed.pathname) || 'index.html');
    const dir = dirname(target);
    if (!(await isDir(dir))) {
      if (!makedirs && dest) return '';
      await mkdir(dir, { recursive: true });
    }
    await writeFile(target, body);
    return target;
  }

  cacheFile(url: string, saltenv: string): Promise<string | false> {
    return this.getUrl(url, '', true, saltenv);
  }

  async fileList(saltenv: string, prefix = ''): Promise<string[]> {
    return strings(await this.o.request({ cmd: '_file_list', saltenv, prefix }));
  }

  async emptyDirs(saltenv: string, prefix = ''): Promise<string[]> {
    return strings(await this.o.request({ cmd: '_file_list_emptydirs', saltenv, prefix }));
  }

  async dirList(saltenv: string, prefix = ''): Promise<string[]> {
    return strings(await this.o.request({ cmd: '_dir_list', saltenv, prefix }));
  }

  async symlinkList(saltenv: string, prefix = ''): Promise<Record<string, unknown>> {
    const reply = await this.o.request({ cmd: '_symlink_list', saltenv, prefix });
    return reply && typeof reply === 'object' && !Array.isArray(reply)
      ? (reply as Record<string, unknown>)
      : {};
  }

  async envs(): Promise<string[]> {
    return strings(await this.o.request({ cmd: '_file_envs' }));
  }

  /** Salt's `cache_dir`: every file under `salt://path/` cached; with `include_empty`, its empty folders made. */
  async cacheDir(
    url: string,
    saltenv: string,
    includeEmpty: boolean,
    include: (rel: string) => boolean,
  ): Promise<string[]> {
    let path = saltPath(url);
    if (!path.endsWith('/')) path = `${path}/`;
    const out: string[] = [];
    for (const rel of await this.fileList(saltenv)) {
      if (!rel.trim() || !rel.startsWith(path) || !include(rel)) continue;
      const got = await this.cacheFile(saltUrl(rel), saltenv);
      if (got) out.push(got);
    }
    if (includeEmpty) {
      for (const rel of await this.emptyDirs(saltenv)) {
        if (!rel.startsWith(path)) continue;
        const dir = below(join(this.o.cachedir, 'files', saltenv), rel);
        await mkdir(dir, { recursive: true });
        out.push(dir);
      }
    }
    return out;
  }

  /** Salt's `get_dir`: the files of `salt://path` under `dest/<last part of path>/...`, sorted. */
  async getDir(url: string, dest: string, saltenv: string, gzip?: number): Promise<Array<string | false>> {
    const path = saltPath(url).replace(/\/+$/, '');
    const cut = path.lastIndexOf('/');
    const prefix = cut < 0 ? '' : path.slice(0, cut);
    const out: Array<string | false> = [];
    for (const rel of await this.fileList(saltenv, path)) {
      if (rel[path.length] !== '/') continue;
      const minionRel = rel.slice(prefix.length).replace(/^\/+/, '');
      out.push(await this.getFile(saltUrl(rel), below(dest, minionRel), true, saltenv, gzip));
    }
    for (const rel of await this.emptyDirs(saltenv, path)) {
      if (rel[path.length] !== '/') continue;
      const dir = below(dest, rel.slice(prefix.length).replace(/^\/+/, ''));
      await mkdir(dir, { recursive: true });
      out.push(dir);
    }
    return out.sort((a, b) => String(a).localeCompare(String(b)));
  }

  /** Salt's `is_cached`: the cached copy's path, or `''`. */
  async isCached(url: string, saltenv: string): Promise<string> {
    let path = url;
    let env = saltenv;
    if (path.startsWith('salt://')) {
      const [p, senv] = splitEnv(path);
      path = saltPath(p);
      env = senv ?? saltenv;
    }
    const rel = path.replace(/^[|/]+/, '');
    const candidates = [join(this.o.cachedir, 'files', env, rel), join(this.o.cachedir, 'localfiles', rel)];
    try {
      candidates.push(this.extrnPath(new URL(url), env));
    } catch {
      // not a URL
    }
    for (const c of candidates) {
      if (!c.startsWith(this.o.cachedir)) continue;
      if (await stat(c).catch(() => undefined)) return c;
    }
    return '';
  }

  /** Salt's `cache_local_file`: a copy under `<cachedir>/localfiles/`. */
  async cacheLocalFile(path: string): Promise<string> {
    const dest = below(join(this.o.cachedir, 'localfiles'), path);
    await mkdir(dirname(dest), { recursive: true });
    await copyFile(path, dest);
    return dest;
  }

  /** Salt's `file_local_list`: every file cached for `saltenv` and every local file cached, full paths. */
  async fileLocalList(saltenv: string): Promise<string[]> {
    const out = new Set<string>();
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        const full = join(dir, e.name);
        if (e.isDirectory()) await walk(full);
        else out.add(full);
      }
    };
    await walk(join(this.o.cachedir, 'files', saltenv));
    await walk(join(this.o.cachedir, 'localfiles'));
    return [...out].sort();
  }

  /** Salt's `list_states`: the SLS names of the saltenv. */
  async listStates(saltenv: string): Promise<string[]> {
    const states = new Set<string>();
    for (const path of await this.fileList(saltenv)) {
      if (!path.endsWith('.sls')) continue;
      states.add(
        path.endsWith('/init.sls')
          ? path.slice(0, -9).replaceAll('/', '.')
          : path.slice(0, -4).replaceAll('/', '.'),
      );
    }
    return [...states].sort();
  }
}
