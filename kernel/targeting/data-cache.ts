/**
 * Reads the master's minion data cache (Salt's `minion_data_cache`):
 * `<cachedir>/minions/<id>/data.p`, msgpack `{grains, pillar}` written when a minion reports
 * its grains (`_pillar`).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unpackIpc } from '../serial/index.js';
import { isDict } from './traverse.js';

export interface MinionData {
  grains?: Record<string, unknown>;
  pillar?: unknown;
}

/** The cached data of one minion, or undefined when it has none (or it cannot be read). */
export async function readMinionData(cachedir: string, id: string): Promise<MinionData | undefined> {
  let raw: Buffer;
  try {
    raw = await readFile(join(cachedir, 'minions', id, 'data.p'));
  } catch {
    return undefined;
  }
  try {
    const data = unpackIpc(raw);
    if (!isDict(data)) return undefined;
    const out: MinionData = {};
    if (isDict(data.grains)) out.grains = data.grains;
    if (data.pillar !== undefined && data.pillar !== null) out.pillar = data.pillar;
    return out;
  } catch {
    return undefined;
  }
}

/** The ids with a cache folder. */
export async function listCachedMinions(cachedir: string): Promise<string[]> {
  try {
    return (await readdir(join(cachedir, 'minions'), { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}

/**
 * The cached data of the given minions (only those that have data), read in parallel: what
 * `checkMinions` needs for grain, pillar, ipcidr and compound targets.
 */
export async function loadMinionDataCache(
  cachedir: string,
  ids: readonly string[],
): Promise<Map<string, MinionData>> {
  const cached = new Set(await listCachedMinions(cachedir));
  const wanted = ids.filter((id) => cached.has(id));
  const entries = await Promise.all(
    wanted.map(async (id) => [id, await readMinionData(cachedir, id)] as const),
  );
  const out = new Map<string, MinionData>();
  for (const [id, data] of entries) if (data) out.set(id, data);
  return out;
}
