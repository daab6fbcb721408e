/**
 * Finding SLS files on the file client, as Salt's `fileclient.get_state` and the highstate's
 * `avail` (`LazyAvailStates`) and `_get_envs` do: `a.b` is `salt://a/b.sls`, else
 * `salt://a/b/init.sls`; the SLS names of each saltenv are listed once per compile.
 */
import type { SlsSource } from '../types.js';

/** Where an SLS was found: its `salt://` url and the local path of the cached copy. */
export interface FoundSls {
  source: string;
  dest: string;
}

/** `get_state`: the SLS's file, or undefined when the file server has neither form. */
export async function getState(src: SlsSource, sls: string, saltenv: string): Promise<FoundSls | undefined> {
  const base = sls.replaceAll('.', '/');
  for (const source of [`salt://${base}.sls`, `salt://${base}/init.sls`]) {
    const dest = await src.cacheFile(source, saltenv);
    if (dest) return { source, dest };
  }
  return undefined;
}

/** `salt.utils.url.create` for the `state_top` option: `top.sls` and `/top.sls` → `salt://top.sls`. */
export function topUrl(stateTop: string): string {
  if (stateTop.startsWith('salt://')) return stateTop;
  return `salt://${stateTop.replace(/^\/+/, '')}`;
}

/** `_get_envs`: `base`, then the file server's envs; or `env_order` (those the file server knows). */
export async function getEnvs(src: SlsSource, envOrder: readonly string[] = []): Promise<string[]> {
  const clientEnvs = await src.envs();
  const order = [...new Set(envOrder)];
  if (order.length > 0 && clientEnvs.length > 0) return order.filter((e) => clientEnvs.includes(e));
  if (order.length > 0) return order;
  const envs = ['base'];
  for (const e of clientEnvs) if (!envs.includes(e)) envs.push(e);
  return envs;
}

/** The SLS names of each saltenv, listed on first use (Salt's `self.avail`). */
export class AvailStates {
  readonly #src: SlsSource;
  readonly #envs: Promise<string[]>;
  readonly #lists = new Map<string, Promise<string[]>>();

  constructor(src: SlsSource, envOrder: readonly string[] = []) {
    this.#src = src;
    this.#envs = getEnvs(src, envOrder);
  }

  /** `saltenv in self.avail`. */
  async has(saltenv: string): Promise<boolean> {
    return (await this.#envs).includes(saltenv);
  }

  /** `self.avail[saltenv]`: its SLS names (empty for an env the file server lacks). */
  list(saltenv: string): Promise<string[]> {
    let hit = this.#lists.get(saltenv);
    if (!hit) {
      hit = this.#src.listStates(saltenv).catch(() => []);
      this.#lists.set(saltenv, hit);
    }
    return hit;
  }
}
