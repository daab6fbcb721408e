/**
 * The light listing's grains of each minion (minion-listing.ts), kept between requests: a
 * minion's entry is read again only when its `<cachedir>/minions/<id>/data.p` changed (mtime
 * or size), so a console listing 10,000 minions again reads 10,000 `stat`s, not 10,000 caches
 * of full grains and pillar. Only the picked grains are kept (a few hundred bytes a minion),
 * for the last few grain sets asked for.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readMinionData } from '../../kernel/services.js';
import { pickGrains } from './minion-listing.js';

interface Entry {
  readonly mtimeMs: number;
  readonly size: number;
  readonly grains: Readonly<Record<string, unknown>> | undefined;
}

/** Grain sets kept (the console asks for one; a `grain:glob` filter adds one a grain). */
const SETS_KEPT = 4;

export class LightGrainsMemo {
  readonly #sets = new Map<string, Map<string, Entry>>();

  constructor(readonly cachedir: string) {}

  /** The `names` grains of minion `id`, or undefined when the master has no grains of it. */
  async get(id: string, names: readonly string[]): Promise<Readonly<Record<string, unknown>> | undefined> {
    const key = names.join(',');
    let set = this.#sets.get(key);
    if (!set) {
      if (this.#sets.size >= SETS_KEPT) this.#sets.delete(this.#sets.keys().next().value as string);
      set = new Map();
      this.#sets.set(key, set);
    }
    let st: { mtimeMs: number; size: number };
    try {
      st = await stat(join(this.cachedir, 'minions', id, 'data.p'));
    } catch {
      set.delete(id);
      return undefined;
    }
    const hit = set.get(id);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.grains;
    const data = await readMinionData(this.cachedir, id);
    const grains = data?.grains ? pickGrains(data.grains, names) : undefined;
    set.set(id, { mtimeMs: st.mtimeMs, size: st.size, grains });
    return grains;
  }

  /** Minions kept, over every grain set (for tests). */
  get size(): number {
    let n = 0;
    for (const s of this.#sets.values()) n += s.size;
    return n;
  }
}
