/**
 * Salt's `pillar_cache` (the `memory` backend): a compiled pillar is served again for
 * `pillar_cache_ttl` seconds per (minion, pillarenv); a minion's `clean_cache` or a request with
 * `pillar_override` compiles anew. Held in the process that compiles (each request worker).
 */
import type { PillarData } from './merge.js';

export class PillarCache {
  readonly #ttlMs: number;
  readonly #entries = new Map<string, { at: number; pillar: PillarData }>();

  constructor(ttlSeconds: number) {
    this.#ttlMs = ttlSeconds * 1000;
  }

  static key(id: string, pillarenv: string | null): string {
    return `${id}\0${pillarenv ?? ''}`;
  }

  get(key: string, now = Date.now()): PillarData | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (now - e.at >= this.#ttlMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return e.pillar;
  }

  set(key: string, pillar: PillarData, now = Date.now()): void {
    this.#entries.set(key, { at: now, pillar });
  }

  clear(id: string): void {
    for (const k of this.#entries.keys()) if (k.startsWith(`${id}\0`)) this.#entries.delete(k);
  }
}
