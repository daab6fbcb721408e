/**
 * A resolved-config cache for the CLIs, which read the master config on every call: loading
 * zod and YAML and validating costs ~150 ms of a `salt` run. The cache holds the resolved
 * config of a plain data config dir (Salt YAML/JSON, `<kind>.d/*.conf`) with the size and
 * mtime of every input and of the folders that could gain a file; any change, and any config
 * that runs code (`.ts`/`.js` configs) or uses `include:`, goes through the full load.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { userCacheDir } from '../kernel/cache/user-cache-dir.js';
import type { ConfigKind } from '../kernel/config/constants.js';
import type { ResolvedMasterConfig, ResolvedMinionConfig } from '../kernel/config/resolve.js';

interface Stamp {
  path: string;
  mtimeMs: number;
  size: number;
}

interface CacheEntry {
  version: 2;
  /** What the entry was loaded for ({@link cacheKey}): the file name holds only its hash. */
  key: string;
  inputs: Stamp[];
  config: Record<string, unknown>;
  warnings: string[];
}

function stamp(path: string): Stamp {
  const st = statSync(path, { throwIfNoEntry: false });
  return { path, mtimeMs: st?.mtimeMs ?? -1, size: st?.isDirectory() ? -2 : (st?.size ?? -1) };
}

function cacheKey(kind: ConfigKind, dir: string, overrides: object): string {
  return JSON.stringify([kind, dir, overrides, hostname()]);
}

/**
 * 64 bits of FNV-1a over the key's UTF-16 units (two 32-bit lanes with different offsets),
 * for the cache file's name. Not node:crypto, which costs a `salt` run ~3 ms to load; a
 * collision cannot serve another dir's config, since an entry is used only for its own key.
 */
function keyHash(key: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

function cachePath(kind: ConfigKind, key: string): string {
  return join(userCacheDir(), `${kind}-config-${keyHash(key)}.json`);
}

/** Entries of one kind kept at most: every config dir ever loaded (a test run makes hundreds) leaves one. */
export const MAX_CACHED_CONFIGS = 64;

/** Removes the least recently written entries of `kind` past {@link MAX_CACHED_CONFIGS} (a pruned one costs one full load). */
function prune(kind: ConfigKind): void {
  const dir = userCacheDir();
  const prefix = `${kind}-config-`;
  const entries = readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.json'))
    .map((f) => ({
      path: join(dir, f),
      mtimeMs: statSync(join(dir, f), { throwIfNoEntry: false })?.mtimeMs ?? 0,
    }));
  if (entries.length <= MAX_CACHED_CONFIGS) return;
  entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
  for (const e of entries.slice(0, entries.length - MAX_CACHED_CONFIGS)) {
    try {
      unlinkSync(e.path);
    } catch {
      // another CLI pruned it first
    }
  }
}

function fresh(entry: CacheEntry): boolean {
  return entry.inputs.every((i) => {
    const now = stamp(i.path);
    return now.mtimeMs === i.mtimeMs && now.size === i.size;
  });
}

/** The files and folders whose change must invalidate a cached config of `dir`. */
function inputsOf(kind: ConfigKind, dir: string): Stamp[] {
  const dropIn = join(dir, `${kind}.d`);
  const list = (folder: string): string[] => {
    try {
      return readdirSync(folder).map((n) => join(folder, n));
    } catch {
      return []; // missing: its stamp records that
    }
  };
  return [dir, dropIn, ...list(dir), ...list(dropIn)].map(stamp);
}

/** The cached resolved config of `dir` while every input is unchanged, else `undefined`. */
export function cachedConfig(
  kind: 'master',
  dir: string,
  overrides?: Record<string, unknown>,
): { config: ResolvedMasterConfig; warnings: string[] } | undefined;
export function cachedConfig(
  kind: 'minion',
  dir: string,
  overrides?: Record<string, unknown>,
): { config: ResolvedMinionConfig; warnings: string[] } | undefined;
export function cachedConfig(
  kind: ConfigKind,
  dir: string,
  overrides: Record<string, unknown> = {},
): { config: ResolvedMasterConfig | ResolvedMinionConfig; warnings: string[] } | undefined {
  const key = cacheKey(kind, resolve(dir), overrides);
  try {
    const entry = JSON.parse(readFileSync(cachePath(kind, key), 'utf8')) as CacheEntry;
    if (entry.version === 2 && entry.key === key && fresh(entry)) {
      return { config: entry.config as unknown as ResolvedMasterConfig, warnings: entry.warnings };
    }
  } catch {
    // no usable cache entry
  }
  return undefined;
}

export function loadConfigCached(
  kind: 'master',
  dir: string,
  overrides?: Record<string, unknown>,
): Promise<{ config: ResolvedMasterConfig; warnings: string[] }>;
export function loadConfigCached(
  kind: 'minion',
  dir: string,
  overrides?: Record<string, unknown>,
): Promise<{ config: ResolvedMinionConfig; warnings: string[] }>;
/** `loadConfig` with the resolved-config cache (for short-lived CLI processes). */
export async function loadConfigCached(
  kind: ConfigKind,
  configDir: string,
  overrides: Record<string, unknown> = {},
): Promise<{ config: ResolvedMasterConfig | ResolvedMinionConfig; warnings: string[] }> {
  const dir = resolve(configDir);
  const hit =
    kind === 'master' ? cachedConfig('master', dir, overrides) : cachedConfig('minion', dir, overrides);
  if (hit) return hit;
  const path = cachePath(kind, cacheKey(kind, dir, overrides));
  const before = inputsOf(kind, dir);
  const { loadConfig } = await import('../kernel/config/load.js');
  const loaded =
    kind === 'master'
      ? await loadConfig('master', dir, overrides)
      : await loadConfig('minion', dir, overrides);
  const c = loaded.config as unknown as { include?: unknown; plugins?: readonly unknown[] };
  const runsCode = loaded.path !== null && /\.(?:ts|mjs|js)$/.test(loaded.path);
  const includes =
    c.include !== undefined && c.include !== null && !(Array.isArray(c.include) && c.include.length === 0);
  if (!runsCode && !includes && !(c.plugins && c.plugins.length > 0)) {
    const after = inputsOf(kind, dir);
    if (JSON.stringify(before) === JSON.stringify(after)) {
      try {
        mkdirSync(userCacheDir(), { recursive: true, mode: 0o700 });
        const tmp = `${path}.${process.pid}.tmp`;
        const entry: CacheEntry = {
          version: 2,
          key: cacheKey(kind, dir, overrides),
          inputs: after,
          config: loaded.config as unknown as Record<string, unknown>,
          warnings: loaded.warnings,
        };
        writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600 });
        renameSync(tmp, path);
        prune(kind);
      } catch {
        // a cache that cannot be written only costs time
      }
    }
  }
  return { config: loaded.config, warnings: loaded.warnings };
}
