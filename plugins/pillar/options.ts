/**
 * The pillar options (Salt's `pillar_roots`, `ext_pillar`, `pillar_source_merging_strategy`,
 * ...): declared by the pillar plugin (not the kernel's schema), for the master and, for the
 * few a minion reads (`pillarenv`, `pillar_raise_on_missing`, ...), for the minion; and the
 * compiler's view of a master config.
 */
import { z } from 'zod';
import {
  boolOption,
  collectionOption,
  defineOptions,
  enumOption,
  intOption,
  type OptionsInput,
} from '../../kernel/index.js';
import type { PillarRoots } from './roots.js';

const nullableString = (description: string) =>
  collectionOption(z.string().nullable(), null, description, 'string | null');

/** Master options; a minion has them too (Salt's masterless pillar), and reads `pillarenv` and the two below. */
export const pillarOptionSet = defineOptions(['master', 'minion'], {
  pillar_roots: collectionOption(
    z.record(z.string(), z.union([z.string(), z.array(z.string())]), {
      error: 'expected a mapping of pillarenv to a list of directories',
    }),
    { base: ['/srv/pillar'] },
    'Directories of pillar SLS files and their `top.sls`, by pillarenv.',
    'mapping of pillarenv → list of paths',
  ),
  ext_pillar: collectionOption(
    z.unknown(),
    [],
    'External pillars, in order: `[{name: args}]` (a malformed value is reported in `_errors`, as Salt does).',
    'list of mappings',
  ),
  ext_pillar_first: boolOption(
    false,
    'Compile the external pillars first; pillar_roots data overrides them.',
  ),
  pillar_source_merging_strategy: enumOption(
    ['smart', 'recurse', 'aggregate', 'overwrite', 'none', 'list'],
    'smart',
    'How pillar sources are merged (Salt `dictupdate.merge`).',
  ),
  pillar_merge_lists: boolOption(false, 'Merge lists of pillar sources instead of replacing them.'),
  pillar_includes_override_sls: boolOption(false, 'Included SLS data overrides the including SLS.'),
  pillarenv: nullableString('Only this pillar environment is compiled (a minion asks the master for it).'),
  pillarenv_from_saltenv: boolOption(false, "A minion's saltenv picks its pillarenv."),
  pillar_safe_render_error: boolOption(true, '`_errors` hides render details (the master log has them).'),
  pillar_cache: boolOption(
    false,
    'Keep compiled pillars in memory (per request worker) for pillar_cache_ttl seconds.',
  ),
  pillar_cache_ttl: intOption(3600, 'Seconds a cached pillar is served.', { min: 0 }),
  pillar_raise_on_missing: boolOption(
    false,
    'Minion: `pillar.get` of a missing key without a default raises.',
  ),
});

declare module '../../kernel/index.js' {
  interface MasterPluginOptions extends OptionsInput<typeof pillarOptionSet> {}
  interface MinionPluginOptions extends OptionsInput<typeof pillarOptionSet> {}
}

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
  /** The whole master config, for ext_pillars that read their own options. */
  opts: Readonly<Record<string, unknown>>;
}

const str = (v: unknown, def: string): string => (typeof v === 'string' && v ? v : def);

/**
 * The compiler's options from a resolved master config (the plugin's options are in its
 * `extra`) or from a plain mapping of options (tests, runners); throws SALT_ERR_CONFIG_INVALID.
 */
export function pillarOptions(config: Readonly<Record<string, unknown>>): PillarOptions {
  const extra = (config.extra ?? config) as Readonly<Record<string, unknown>>;
  const o = pillarOptionSet.read({ extra });
  const nodegroups = config.nodegroups;
  const roots = Object.fromEntries(
    Object.entries(o.pillar_roots).map(([env, dirs]) => [env, typeof dirs === 'string' ? [dirs] : dirs]),
  );
  return {
    roots,
    extPillar: o.ext_pillar,
    extPillarFirst: o.ext_pillar_first,
    strategy: o.pillar_source_merging_strategy,
    mergeLists: o.pillar_merge_lists,
    pillarenv: o.pillarenv || null,
    pillarenvFromSaltenv: o.pillarenv_from_saltenv,
    safeRenderError: o.pillar_safe_render_error,
    includesOverrideSls: o.pillar_includes_override_sls,
    nodegroups: nodegroups && typeof nodegroups === 'object' ? (nodegroups as Record<string, unknown>) : {},
    renderer: str(config.renderer ?? extra.renderer, 'jinja|yaml'),
    stateTop: str(config.state_top ?? extra.state_top, 'top.sls')
      .replace(/^salt:\/\//, '')
      .replace(/^\/+/, ''),
    opts: config,
  };
}

/** Minion-only: a masterless `pillar.items` keeps the in-memory pillar under a fresh compile. */
export const pillarMinionOptionSet = defineOptions('minion', {
  ssh_merge_pillar: boolOption(
    true,
    'A masterless minion merges a fresh pillar compile (`pillar.items pillarenv=...`) over the pillar it compiled at start.',
  ),
});
