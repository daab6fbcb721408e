/**
 * Salt's `pkg.mod_aggregate` (`salt/states/pkg.py`): with `state_aggregate` (or `aggregate:` on
 * the chunk) the first pkg chunk of a run to reach installed, latest, removed or purged takes the
 * packages of every pkg chunk of the same function and `fromrepo` that has not run yet, so one
 * package-manager call handles them all. Those chunks are marked `__agg__` and still run after
 * (their packages are then in place). `sources` and named packages are never mixed: the kind the
 * first absorbed chunk has wins. A chunk with `hold` stays out of it, and a named chunk's
 * `version` moves into the list (`{name: version}`), leaving the chunk without it, as Salt's does.
 */

import type { Chunk } from '../plugins/states/index.js';

const AGGREGATED = new Set(['installed', 'latest', 'removed', 'purged']);

/** Salt's `state.gen_tag`: the key a chunk's return has in `running`. */
const tagOf = (c: Chunk): string => `${c.state}_|-${c.__id__}_|-${c.name}_|-${c.fun}`;

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

export function pkgAggregate(
  low: Chunk,
  chunks: readonly Chunk[],
  running: Readonly<Record<string, unknown>>,
): Chunk {
  if (!AGGREGATED.has(String(low.fun))) return low;
  const pkgs: unknown[] = [];
  let kind: 'sources' | 'pkgs' | undefined;
  for (const chunk of chunks) {
    if (tagOf(chunk) in running || chunk.state !== 'pkg' || '__agg__' in chunk) continue;
    if (chunk.fun !== low.fun || (chunk.fromrepo ?? null) !== (low.fromrepo ?? null)) continue;
    if ('sources' in chunk) {
      kind ??= 'sources';
      if (kind !== 'sources') continue;
      pkgs.push(...asList(chunk.sources));
      chunk.__agg__ = true;
    } else if (!('hold' in chunk)) {
      kind ??= 'pkgs';
      if (kind !== 'pkgs') continue;
      if ('pkgs' in chunk) {
        pkgs.push(...asList(chunk.pkgs));
        chunk.__agg__ = true;
      } else if ('name' in chunk) {
        const version = chunk.version;
        delete chunk.version;
        pkgs.push(version === undefined || version === null ? chunk.name : { [String(chunk.name)]: version });
        chunk.__agg__ = true;
      }
    }
  }
  if (kind && pkgs.length) low[kind] = kind in low ? [...asList(low[kind]), ...pkgs] : pkgs;
  return low;
}
