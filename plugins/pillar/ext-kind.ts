/**
 * The `pillar.ext` plugin kind: an external pillar (Salt's `ext_pillar` modules). Any plugin
 * registers one with `api.kinds.register('pillar.ext', def)`; the master config's `ext_pillar`
 * list names them, each with its arguments (a mapping → keywords, a list → positionals, a scalar
 * → one positional), as Salt calls `ext_pillar(minion_id, pillar, *args, **kwargs)`.
 */
import type { PillarData } from './merge.js';
import type { PillarLog } from './pillar-log.js';
import type { PillarRoots } from './roots.js';

export interface ExtPillarContext {
  /** The minion whose pillar is compiled. */
  readonly minionId: string;
  /** The pillar compiled so far (read-only). */
  readonly pillar: Readonly<PillarData>;
  readonly grains: Readonly<Record<string, unknown>>;
  /** The master config. */
  readonly opts: Readonly<Record<string, unknown>>;
  /** The minion's `extra_minion_data` (`{}` when it sent none). */
  readonly extraMinionData: Readonly<Record<string, unknown>>;
  /** Log names and reasons here, never pillar values. */
  readonly log: PillarLog;
  /** The pillarenv this compile is for (the minion's, its saltenv's, or the master's), or null for all. */
  readonly pillarenv: string | null;
  /** The minion's saltenv, or null. */
  readonly saltenv: string | null;
  /** Who compiles: the master for a minion, or a masterless minion for itself (Salt's `__role`). */
  readonly role: 'master' | 'minion';
  /**
   * Compiles a pillar from `roots` as if they were `pillar_roots` (their top files and SLS, with
   * this minion's grains, no external pillars; `_errors` as Salt reports them), for `saltenv`.
   */
  compileRoots(roots: PillarRoots, saltenv: string): Promise<PillarData>;
  /** Merges two pillars as `pillar_source_merging_strategy` and `pillar_merge_lists` say. */
  merge(a: PillarData, b: PillarData): PillarData;
}

export interface ExtPillarDef {
  /** The name `ext_pillar` entries use (`cmd_yaml`, `postgres`, ...). */
  readonly name: string;
  /** The data to merge into the pillar; a throw is reported in `_errors` and the others still run. */
  run(
    ctx: ExtPillarContext,
    args: readonly unknown[],
    kwargs: Readonly<Record<string, unknown>>,
  ): PillarData | undefined | Promise<PillarData | undefined>;
}

declare module '../../kernel/kinds.js' {
  interface PluginKinds {
    'pillar.ext': ExtPillarDef;
  }
}

/** Types an ext_pillar. A typing aid only. */
export function defineExtPillar(def: ExtPillarDef): ExtPillarDef {
  return def;
}
