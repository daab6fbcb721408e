/**
 * `saltutil.sync_*` for tsalt (Salt's `salt/utils/extmods.py` `sync`): copies
 * `salt://_<form>/*.js|.mjs` from the master's file server into `<extension_modules>/<form>/`,
 * the loader's first search dir, and removes what an earlier sync put there that the master no
 * longer has. Unlike Salt (`clean_dynamic_modules` removes every other file), only files named
 * in the sync manifest are removed: files placed there by hand stay. Only the top level of
 * `_<form>/` is synced, as the loader does not look into sub-folders.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { SALT_ERR_EXEC_SYNC } from '../kernel/index.js';

/** Sends one aes load to the master and resolves with its reply. */
export type MasterRequestFn = (load: Record<string, unknown>) => Promise<unknown>;

/** Name of the manifest in each synced folder (hidden: the loader skips dot files). */
export const MANIFEST_NAME = '.tsalt-sync.json';

const MODULE_FILE = /^[^/]+\.(?:mjs|js)$/;

export interface SyncOptions {
  /** `<extension_modules>`. */
  extensionModules: string;
  /** `modules`, ... : the master folder is `_<form>`, the local one `<form>`. */
  form: string;
  saltenvs: readonly string[];
  hashType: string;
  request: MasterRequestFn;
  /** Salt's `extmod_whitelist`/`extmod_blacklist` test on the module name; default: all. */
  accept?: (name: string) => boolean;
  /** The file names synced; default: `.js`/`.mjs`, what tsalt's loaders load. */
  files?: RegExp;
}

export interface SyncResult {
  /** Salt's return: `<form>.<name>` for each file added or changed. */
  changed: string[];
  /** Whether anything in the folder changed (added, replaced or removed): the loader must refresh. */
  touched: boolean;
}

/** The files a sync put in a folder: the only ones a later sync may remove. */
export async function readManifest(dir: string, names: RegExp = MODULE_FILE): Promise<string[]> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(dir, MANIFEST_NAME), 'utf8'));
    const files = (parsed as { files?: unknown } | null)?.files;
    return Array.isArray(files)
      ? files.filter((f): f is string => typeof f === 'string' && isSafeName(f, names))
      : [];
  } catch {
    return [];
  }
}

export async function writeManifest(dir: string, files: readonly string[]): Promise<void> {
  const tmp = join(dir, `${MANIFEST_NAME}.tmp`);
  await writeFile(tmp, `${JSON.stringify({ files: [...files].sort() }, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, join(dir, MANIFEST_NAME));
}

/**
 * The names synced for the kinds tsalt does not load (`utils`, `renderers`, ...): tsalt's `.js`/`.mjs`
 * and Salt's own (`_<form>` files Salt's `extmods.sync` takes: `.py`, `.pyx`, `.so`, `.zip`).
 */
export const SALT_OR_JS_FILE = /^[^/]+\.(?:mjs|js|pyx?|so|zip)$/;

/** A plain file name of a module: no folders, no dot files, no traversal. */
function isSafeName(name: string, files: RegExp = MODULE_FILE): boolean {
  return files.test(name) && !name.startsWith('.') && name !== '..' && !name.includes('\\');
}

/**
 * The files to remove after a sync: those the manifest lists that the master no longer has.
 * Files never synced (not in the manifest) are kept.
 */
export function staleFiles(manifest: readonly string[], remote: ReadonlySet<string>): string[] {
  return manifest.filter((f) => !remote.has(f)).sort();
}

function digest(data: Buffer, hashType: string): string {
  return createHash(hashType).update(data).digest('hex');
}

async function localHash(path: string, hashType: string): Promise<string | undefined> {
  try {
    return digest(await readFile(path), hashType);
  } catch {
    return undefined;
  }
}

function asBuffer(data: unknown): Buffer | undefined {
  if (data instanceof Uint8Array) return Buffer.from(data);
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  return undefined;
}

/** Downloads `salt://<rel>` in `_serve_file` chunks until an empty one. */
async function download(request: MasterRequestFn, rel: string, saltenv: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let loc = 0;
  for (;;) {
    const reply = (await request({ cmd: '_serve_file', path: rel, saltenv, loc })) as {
      data?: unknown;
      dest?: unknown;
    } | null;
    const data = asBuffer(reply?.data);
    if (!data || reply?.dest === '') {
      if (loc === 0 && reply?.dest === '')
        throw new SALT_ERR_EXEC_SYNC(`salt://${rel} is not served by the master`);
      break;
    }
    if (data.length === 0) break;
    chunks.push(data);
    loc += data.length;
  }
  return Buffer.concat(chunks);
}

/** Syncs one form over the given saltenvs; the first saltenv that has a file name wins. */
export async function syncForm(opts: SyncOptions): Promise<SyncResult> {
  const dir = join(opts.extensionModules, opts.form);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const prefix = `_${opts.form}/`;
  const changed: string[] = [];
  const remote = new Set<string>();
  let touched = false;
  for (const saltenv of opts.saltenvs) {
    const listed = await opts.request({ cmd: '_file_list', saltenv, prefix: `_${opts.form}` });
    const files = Array.isArray(listed) ? listed.filter((f): f is string => typeof f === 'string') : [];
    for (const rel of files) {
      if (!rel.startsWith(prefix)) continue;
      const name = rel.slice(prefix.length);
      if (!isSafeName(name, opts.files) || remote.has(name)) continue;
      if (opts.accept && !opts.accept(posix.parse(name).name)) continue;
      remote.add(name);
      const dest = join(dir, name);
      // relative paths, as Salt's file client sends them (a Salt master finds no `salt://` path)
      const hashReply = (await opts.request({ cmd: '_file_hash', path: rel, saltenv })) as {
        hash_type?: unknown;
        hsum?: unknown;
      } | null;
      const hashType = typeof hashReply?.hash_type === 'string' ? hashReply.hash_type : opts.hashType;
      const want = typeof hashReply?.hsum === 'string' ? hashReply.hsum : undefined;
      if (want !== undefined && (await localHash(dest, hashType)) === want) continue;
      const data = await download(opts.request, rel, saltenv);
      if (want !== undefined && digest(data, hashType) !== want) {
        throw new SALT_ERR_EXEC_SYNC(`salt://${rel} changed while it was downloaded; sync again`);
      }
      const tmp = join(dir, `.${name}.part`);
      await writeFile(tmp, data, { mode: 0o600 });
      await rename(tmp, dest);
      changed.push(`${opts.form}.${posix.parse(name).name}`);
      touched = true;
    }
  }
  const manifest = await readManifest(dir, opts.files);
  for (const name of staleFiles(manifest, remote)) {
    await rm(join(dir, name), { force: true });
    touched = true;
  }
  if (remote.size > 0) await writeManifest(dir, [...remote]);
  else {
    // nothing synced: as Salt's clean_dynamic_modules, an empty folder goes (files put there by hand keep it)
    await rm(join(dir, MANIFEST_NAME), { force: true });
    await rmdir(dir).catch(() => undefined);
  }
  return { changed, touched };
}
