/**
 * The mine bank of the master's minion data cache (Salt's `localfs` cache, bank
 * `minions/<id>`, key `mine`): `<cachedir>/minions/<id>/mine.p`, a msgpack map of mine name →
 * data, written as Salt writes it so a Salt master reading the same cachedir sees the same mine.
 * Writes are synchronous and atomic (a request worker thread runs them; readers never see half a file).
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { isStringMap, packIpc, unpackIpc } from '../../kernel/util.js';

export type MineData = Record<string, unknown>;

function bankFile(cachedir: string, id: string): string {
  return join(cachedir, 'minions', id, 'mine.p');
}

/** The mine of minion `id`; `{}` when it has none, undefined when the file is not a map (Salt skips it). */
export async function readMine(cachedir: string, id: string): Promise<MineData | undefined> {
  let raw: Buffer;
  try {
    raw = await readFile(bankFile(cachedir, id));
  } catch {
    return {};
  }
  try {
    const data = unpackIpc(raw);
    return isStringMap(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

/** Replaces the mine of minion `id`. */
export function writeMine(cachedir: string, id: string, data: MineData): void {
  const dir = join(cachedir, 'minions', id);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.mine.p.${process.pid}.${threadId}`);
  writeFileSync(tmp, packIpc(data), { mode: 0o600 });
  renameSync(tmp, bankFile(cachedir, id));
}

/** Removes the mine of minion `id`: true when there was one (Salt's `cache.flush`). */
export function flushMine(cachedir: string, id: string): boolean {
  const file = bankFile(cachedir, id);
  if (!existsSync(file)) return false;
  rmSync(file, { force: true });
  return true;
}
