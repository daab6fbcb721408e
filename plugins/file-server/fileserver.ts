/**
 * The file server (Salt's `salt/fileserver/__init__.py` `Fileserver`): the backends named by
 * `fileserver_backend`, in that order, and what a minion asks of them: `find_file`,
 * `serve_file` (chunks of `file_buffer_size`, optionally gzipped), `file_hash`,
 * `file_hash_and_stat`, `file_list`, `file_list_emptydirs`, `dir_list`, `symlink_list`,
 * `file_envs`, with Salt's reply shapes. A refused path (traversal, a link out of its root) is
 * logged with its code and answered as Salt answers a missing file.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FileServerBackend, FileServerBackendDef, FileServerLog, ServedRoot } from './backend-kind.js';
import { SALT_ERR_FILESERVER_BACKEND, SALT_ERR_FILESERVER_PATH_REFUSED } from './errors.js';
import type { FileServerOptions } from './options.js';
import { cleanRelPath, isInside, parseFilePath } from './paths.js';
import { isIgnored, realOrUndefined, type TreeRules, walkTree } from './tree.js';

type Load = Readonly<Record<string, unknown>>;

/** Salt's `fnd`: where the file is on the master's disk, its path in the saltenv, its stat. */
export interface FoundFile {
  path: string;
  rel: string;
  stat?: number[];
  back?: string;
}

/** A `_serve_file` reply. `data` is `''` only when nothing is served. */
export interface ServedChunk {
  data: Buffer | '';
  dest: string;
  gzip?: number;
}

export type HashReply = { hash_type: string; hsum: string } | '';

const NOT_FOUND: FoundFile = { path: '', rel: '' };

const ROOT_REALPATH_TTL_MS = 5000;

/** Files up to this size are hashed from one read; larger ones streamed. */
const SMALL_FILE = 1 << 20;

/** Salt's `list(os.stat(path))`: mode, ino, dev, nlink, uid, gid, size, atime, mtime, ctime. */
function statList(st: Stats): number[] {
  return [
    st.mode,
    st.ino,
    st.dev,
    st.nlink,
    st.uid,
    st.gid,
    st.size,
    Math.floor(st.atimeMs / 1000),
    Math.floor(st.mtimeMs / 1000),
    Math.floor(st.ctimeMs / 1000),
  ].map(Number);
}

function envOf(load: Load): string | undefined {
  const env = load.saltenv;
  if (typeof env === 'string') return env;
  if (typeof env === 'number') return String(env);
  return undefined;
}

function prefixOf(load: Load): string {
  return typeof load.prefix === 'string' ? load.prefix.replace(/^\/+|\/+$/g, '') : '';
}

export class FileServer {
  readonly rules: TreeRules;
  private readonly active: { name: string; backend: FileServerBackend }[] = [];
  /** Hashes by path, kept while the file's mtime and size stay (Salt keeps them on disk). */
  private readonly hashes = new Map<string, { mtimeMs: number; size: number; hsum: string }>();
  private readonly realRoots = new Map<string, { real: string; at: number }>();
  /** The stat `findFile` just took of a file, for the hash that follows it. */
  private readonly lastStat = new Map<string, Stats>();

  constructor(
    readonly opts: FileServerOptions,
    defs: readonly FileServerBackendDef[],
    private readonly log: FileServerLog,
  ) {
    this.rules = {
      followSymlinks: opts.fileserver_followsymlinks,
      ignoreRegex: opts.file_ignore_regex.flatMap((re) => {
        try {
          return [new RegExp(re)];
        } catch {
          log.error({ regex: re }, 'file_ignore_regex: invalid regular expression, ignored');
          return [];
        }
      }),
      ignoreGlob: opts.file_ignore_glob,
    };
    for (const name of opts.fileserver_backend) {
      const def = defs.find((d) => d.name === name || d.aliases?.includes(name));
      if (!def) {
        log.error({ code: SALT_ERR_FILESERVER_BACKEND.code }, new SALT_ERR_FILESERVER_BACKEND(name).message);
        continue;
      }
      if (this.active.some((a) => a.name === def.name)) continue;
      this.active.push({ name: def.name, backend: def.create(opts, log) });
    }
  }

  /** The active backends, in `fileserver_backend` order. */
  backends(): readonly { name: string; backend: FileServerBackend }[] {
    return this.active;
  }

  private async rootsOf(backend: FileServerBackend, saltenv: string): Promise<ServedRoot[]> {
    try {
      return await backend.roots(saltenv);
    } catch (err) {
      this.log.error({ err, saltenv }, 'file server backend failed to list its roots');
      return [];
    }
  }

  private refuse(path: string, why: string): FoundFile {
    const err = new SALT_ERR_FILESERVER_PATH_REFUSED(path, why);
    this.log.warn({ code: err.code }, err.message);
    return { ...NOT_FOUND };
  }

  /** The file `rel` under one root, or why not. */
  private async inRoot(root: ServedRoot, rel: string): Promise<FoundFile | 'escapes' | undefined> {
    let sub = rel;
    if (root.mount) {
      if (!rel.startsWith(`${root.mount}/`)) return undefined;
      sub = rel.slice(root.mount.length + 1);
    }
    const top = posix.resolve(root.dir);
    const full = posix.join(top, sub);
    if (!isInside(top, full)) return 'escapes';
    // the checks run side by side: on a busy master each is a trip through libuv's pool
    const [realTop, realFull, st] = await Promise.all([
      this.opts.fileserver_followsymlinks ? top : this.realRoot(top),
      this.opts.fileserver_followsymlinks ? full : realOrUndefined(full),
      stat(full).catch(() => undefined),
    ]);
    if (!realTop || !realFull || !st) return undefined;
    if (!isInside(realTop, realFull)) return 'escapes';
    if (!st.isFile() || isIgnored(this.rules, sub) || isIgnored(this.rules, full)) return undefined;
    this.lastStat.set(full, st);
    if (this.lastStat.size > 1000) this.lastStat.clear();
    return { path: full, rel, stat: statList(st) };
  }

  /** Salt's `find_file`: the first backend and root that serve `path` in `saltenv`. */
  async findFile(rawPath: string, rawEnv: string): Promise<FoundFile> {
    const { path, saltenv } = parseFilePath(rawPath, rawEnv);
    const clean = cleanRelPath(path);
    if ('refused' in clean) return path === '' ? { ...NOT_FOUND } : this.refuse(rawPath, clean.refused);
    let escaped = false;
    for (const { name, backend } of this.active) {
      for (const root of await this.rootsOf(backend, saltenv)) {
        const fnd = await this.inRoot(root, clean.rel);
        if (fnd === 'escapes') escaped = true;
        else if (fnd) return { ...fnd, back: name };
      }
    }
    return escaped
      ? this.refuse(rawPath, 'its real path leaves the file root (a symlink)')
      : { ...NOT_FOUND };
  }

  /** `_file_find`: the `fnd` of the load's path (`{path: '', rel: ''}` when not served). */
  async fileFind(load: Load): Promise<FoundFile> {
    if (typeof load.path !== 'string' || load.path === '') return { ...NOT_FOUND };
    return this.findFile(load.path, envOf(load) ?? 'base');
  }

  /** `_serve_file`: `file_buffer_size` bytes from `loc`, gzipped at level `gzip` when asked. */
  async serveFile(load: Load): Promise<ServedChunk> {
    const none: ServedChunk = { data: '', dest: '' };
    const saltenv = envOf(load);
    if (typeof load.path !== 'string' || !('loc' in load) || saltenv === undefined) return none;
    const loc = Number(load.loc);
    if (!Number.isSafeInteger(loc) || loc < 0) return none;
    const fnd = await this.findFile(load.path, saltenv);
    if (!fnd.path) return none;
    const size = this.opts.file_buffer_size;
    try {
      const fh = await open(fnd.path, 'r');
      try {
        const buf = Buffer.allocUnsafe(size);
        const { bytesRead } = await fh.read(buf, 0, size, loc);
        const data = buf.subarray(0, bytesRead);
        const level = Number(load.gzip);
        if (load.gzip && bytesRead > 0 && Number.isInteger(level) && level >= 1 && level <= 9) {
          return { data: gzipSync(data, { level }), dest: fnd.rel, gzip: level };
        }
        return { data, dest: fnd.rel };
      } finally {
        await fh.close();
      }
    } catch {
      return none;
    }
  }

  /** A root's real path, kept a few seconds (roots rarely move; a file's own path is checked each time). */
  private async realRoot(top: string): Promise<string | undefined> {
    const hit = this.realRoots.get(top);
    if (hit && Date.now() - hit.at < ROOT_REALPATH_TTL_MS) return hit.real;
    const real = await realOrUndefined(top);
    if (real) this.realRoots.set(top, { real, at: Date.now() });
    return real;
  }

  private async hashOf(path: string, stats: number[] | undefined): Promise<string> {
    const hashType = this.opts.hash_type;
    const st = this.lastStat.get(path) ?? (await stat(path));
    this.lastStat.delete(path);
    const key = `${hashType}:${path}`;
    const cached = this.hashes.get(key);
    if (cached && cached.mtimeMs === st.mtimeMs && cached.size === st.size) return cached.hsum;
    const hash = createHash(hashType);
    if (st.size <= SMALL_FILE) hash.update(await readFile(path));
    else {
      const fh = await open(path, 'r');
      try {
        for await (const chunk of fh.createReadStream({ highWaterMark: 1 << 20 }))
          hash.update(chunk as Buffer);
      } finally {
        await fh.close();
      }
    }
    const hsum = hash.digest('hex');
    if (stats) this.hashes.set(key, { mtimeMs: st.mtimeMs, size: st.size, hsum });
    return hsum;
  }

  /** `_file_hash_and_stat`: `[{hash_type, hsum}, stat]`, or `['', null]`. */
  async fileHashAndStat(load: Load): Promise<[HashReply, number[] | null]> {
    const saltenv = envOf(load);
    if (typeof load.path !== 'string' || saltenv === undefined) return ['', null];
    const fnd = await this.findFile(load.path, saltenv);
    if (!fnd.path) return ['', null];
    try {
      return [
        { hash_type: this.opts.hash_type, hsum: await this.hashOf(fnd.path, fnd.stat) },
        fnd.stat ?? null,
      ];
    } catch {
      return ['', null];
    }
  }

  /** `_file_hash`: `{hash_type, hsum}`, or `''` when the file is not served. */
  async fileHash(load: Load): Promise<HashReply> {
    return (await this.fileHashAndStat(load))[0];
  }

  /** `_file_envs`: every backend's saltenvs, sorted. */
  async fileEnvs(): Promise<string[]> {
    const envs = new Set<string>();
    for (const { backend } of this.active) {
      try {
        for (const e of await backend.envs()) envs.add(e);
      } catch (err) {
        this.log.error({ err }, 'file server backend failed to list its saltenvs');
      }
    }
    return [...envs].sort();
  }

  /** The merged listings of `saltenv` over the backends named in the load (`fsbackend`) or all. */
  private async lists(load: Load) {
    const saltenv = envOf(load);
    const files = new Set<string>();
    const dirs = new Set<string>();
    const empty = new Set<string>();
    const links: Record<string, string> = {};
    if (saltenv === undefined) return { files, dirs, empty, links };
    const only = Array.isArray(load.fsbackend) ? load.fsbackend.map(String) : undefined;
    for (const { name, backend } of this.active) {
      if (only && !only.includes(name)) continue;
      for (const root of await this.rootsOf(backend, saltenv)) {
        const t = await walkTree(root.dir, root.mount, this.rules);
        for (const f of t.files) files.add(f);
        for (const d of t.dirs) dirs.add(d);
        for (const d of t.emptyDirs) empty.add(d);
        // Salt keeps the last backend's symlinks only (its loop assigns); tsalt merges them all
        for (const [k, v] of Object.entries(t.links)) if (!(k in links)) links[k] = v;
      }
    }
    return { files, dirs, empty, links };
  }

  private static filtered(items: Iterable<string>, prefix: string): string[] {
    const all = [...items];
    return (prefix ? all.filter((f) => f.startsWith(prefix)) : all).sort();
  }

  /** `_file_list`. */
  async fileList(load: Load): Promise<string[]> {
    return FileServer.filtered((await this.lists(load)).files, prefixOf(load));
  }

  /** `_file_list_emptydirs`. */
  async fileListEmptyDirs(load: Load): Promise<string[]> {
    return FileServer.filtered((await this.lists(load)).empty, prefixOf(load));
  }

  /** `_dir_list`. */
  async dirList(load: Load): Promise<string[]> {
    return FileServer.filtered((await this.lists(load)).dirs, prefixOf(load));
  }

  /** `_symlink_list`: `{link: target}`. */
  async symlinkList(load: Load): Promise<Record<string, string>> {
    if (envOf(load) === undefined) return {};
    const { links } = await this.lists(load);
    const prefix = prefixOf(load);
    return Object.fromEntries(Object.entries(links).filter(([k]) => !prefix || k.startsWith(prefix)));
  }

  /** `fileserver.update`: each backend's update, `{backend: result}`. */
  /** Masterless: each backend's never-fetched sources, fetched once (errors are logged). */
  async fetchNew(): Promise<void> {
    for (const { name, backend } of this.active) {
      try {
        await backend.fetchNew?.();
      } catch (err) {
        this.log.error({ err }, `fileserver fetch of new ${name} sources failed`);
      }
    }
  }

  async update(only?: readonly string[]): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const { name, backend } of this.active) {
      if (only && !only.includes(name)) continue;
      if (!backend.update) continue;
      try {
        out[name] = await backend.update();
      } catch (err) {
        this.log.error({ err }, `fileserver update of ${name} failed`);
        out[name] = false;
      }
    }
    return out;
  }

  /** `fileserver.clear_cache`: `{backend: [paths removed]}`. */
  async clearCache(only?: readonly string[]): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const { name, backend } of this.active) {
      if (only && !only.includes(name)) continue;
      if (backend.clearCache) out[name] = await backend.clearCache();
    }
    this.hashes.clear();
    return out;
  }
}
