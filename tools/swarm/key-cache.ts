/**
 * The swarm's RSA keys, made once and kept on disk: 2048-bit pairs in Salt's formats, stored
 * in chunk files of {@link CHUNK} pairs (`keys-0000.json`, ...) so that 10,000 minions cost a
 * few dozen files, not 20,000. Keys belong to an index, not to an id: any `--id-prefix` reuses
 * them. Generation runs in libuv's thread pool (node:crypto's async `generateKeyPair`), so
 * every core helps; a chunk is written atomically once it is complete.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { userCacheDir } from '../../kernel/cache/user-cache-dir.js';
import { generateRsaKeyPairAsync } from '../../kernel/crypt/rsa.js';
import type { MinionKeys } from '../../minion/auth.js';

/** Pairs per chunk file. */
export const CHUNK = 250;

/** The default key folder: `~/.cache/tsalt/swarm-keys`. */
export function defaultKeysDir(): string {
  return join(userCacheDir(), 'swarm-keys');
}

function chunkPath(dir: string, chunk: number): string {
  return join(dir, `keys-${String(chunk).padStart(4, '0')}.json`);
}

function isKeys(v: unknown): v is MinionKeys {
  const k = v as Partial<MinionKeys> | null;
  return typeof k?.privatePem === 'string' && typeof k.publicPem === 'string';
}

function readChunk(dir: string, chunk: number): MinionKeys[] | undefined {
  try {
    const data = JSON.parse(readFileSync(chunkPath(dir, chunk), 'utf8')) as unknown;
    if (Array.isArray(data) && data.length === CHUNK && data.every(isKeys)) return data;
  } catch {
    // missing or damaged: made again
  }
  return undefined;
}

/** Runs `jobs` with at most `limit` in flight. */
async function pool<T>(items: readonly T[], limit: number, job: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await job(item);
    }
  });
  await Promise.all(lanes);
}

/**
 * Makes sure keys `0 .. count-1` exist in `dir`; generates the missing chunks. Resolves with
 * how many pairs were generated now (0 when the cache was warm).
 */
export async function ensureKeys(
  dir: string,
  count: number,
  opts: { bits?: number; parallel?: number; onProgress?: (made: number, total: number) => void } = {},
): Promise<number> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const chunks = Math.ceil(count / CHUNK);
  const missing: number[] = [];
  for (let c = 0; c < chunks; c++) if (!existsSync(chunkPath(dir, c)) || !readChunk(dir, c)) missing.push(c);
  const total = missing.length * CHUNK;
  let made = 0;
  for (const c of missing) {
    const pairs: MinionKeys[] = new Array(CHUNK);
    const slots = Array.from({ length: CHUNK }, (_, i) => i);
    await pool(slots, opts.parallel ?? 8, async (i) => {
      pairs[i] = await generateRsaKeyPairAsync(opts.bits ?? 2048);
      made++;
      if (made % 50 === 0) opts.onProgress?.(made, total);
    });
    const file = chunkPath(dir, c);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(pairs), { mode: 0o600 });
    renameSync(tmp, file);
  }
  return made;
}

/**
 * Reads the keys of minions `from .. from+count-1` (they must exist: {@link ensureKeys} first).
 * With a `pool` smaller than the swarm, minion `i` uses key `i % pool` (several ids share a key:
 * Salt's master allows it; the RSA work per minion is the same).
 */
export function loadKeys(
  dir: string,
  from: number,
  count: number,
  pool = Number.POSITIVE_INFINITY,
): MinionKeys[] {
  const out: MinionKeys[] = [];
  const chunks = new Map<number, MinionKeys[]>();
  for (let m = from; m < from + count; m++) {
    const i = m % pool;
    const chunk = Math.floor(i / CHUNK);
    let keys = chunks.get(chunk);
    if (!keys) {
      keys = readChunk(dir, chunk);
      if (!keys) throw new Error(`swarm key chunk ${chunk} is missing in ${dir}: run ensureKeys first`);
      chunks.set(chunk, keys);
    }
    out.push(keys[i % CHUNK] as MinionKeys);
  }
  return out;
}
