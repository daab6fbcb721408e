/**
 * The master options the pillar compiler reads (Salt's `pillar_roots`, `ext_pillar`,
 * `pillar_source_merging_strategy`, ...), taken from the resolved master config once.
 */
import type { PillarRoots } from './roots.js';

export interface PillarOptions {
  roots: PillarRoots;
  /** Salt's `ext_pillar` as configured: checked when used (malformed → `_errors`). */
  extPillar: unknown;
  extPillarFirst: boolean;
  strategy: string;
  mergeLists: boolean;
  pillarenv: string | null;
  pillarenvFromSaltenv: boolean;
  safeRenderError: boolean;
  includesOverrideSls: boolean;
  nodegroups: Readonly<Record<string, unknown>>;
  renderer: string;
  /** The top file's name in each root (Salt's `state_top`). */
  stateTop: string;
  /** The whole master config, for ext_pillars that read their own options (`postgres.*`). */
  opts: Readonly<Record<string, unknown>>;
}

const str = (v: unknown, def: string): string => (typeof v === 'string' && v ? v : def);

/** Reads the pillar options from a master config (missing ones take Salt's defaults). */
export function pillarOptions(config: Readonly<Record<string, unknown>>): PillarOptions {
  const roots = config.pillar_roots;
  const nodegroups = config.nodegroups;
  const stateTop = str(config.state_top, 'top.sls')
    .replace(/^salt:\/\//, '')
    .replace(/^\/+/, '');
  return {
    roots: roots && typeof roots === 'object' ? (roots as PillarRoots) : { base: ['/srv/pillar'] },
    extPillar: config.ext_pillar ?? [],
    extPillarFirst: config.ext_pillar_first === true,
    strategy: str(config.pillar_source_merging_strategy, 'smart'),
    mergeLists: config.pillar_merge_lists === true,
    pillarenv: typeof config.pillarenv === 'string' && config.pillarenv ? config.pillarenv : null,
    pillarenvFromSaltenv: config.pillarenv_from_saltenv === true,
    safeRenderError: config.pillar_safe_render_error !== false,
    includesOverrideSls: config.pillar_includes_override_sls === true,
    nodegroups: nodegroups && typeof nodegroups === 'object' ? (nodegroups as Record<string, unknown>) : {},
    renderer: str(config.renderer, 'jinja|yaml'),
    stateTop,
    opts: config,
  };
}
