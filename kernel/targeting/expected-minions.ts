/**
 * The minions a target addresses, as the master resolves them (Salt's `_prep_pub` +
 * `CkMinions.check_minions`): nodegroups expanded to a compound target, accepted keys, and
 * the minion data cache when the target type needs grains or pillar. Used by the master's
 * publish handler and by the CLI's `--batch-safe-limit` preview.
 */
import { acceptedMinionIds } from './accepted-keys.js';
import { checkMinions, needsMinionData } from './check-minions.js';
import { loadMinionDataCache } from './data-cache.js';
import { resolveNodegroups } from './nodegroups.js';

export interface TargetingConfig {
  pki_dir: string;
  cachedir: string;
  minion_data_cache: boolean;
  nodegroups: Readonly<Record<string, unknown>>;
  conf_file: string;
}

export interface ExpectedMinions {
  /** The target as it is published (nodegroups resolved). */
  tgt: unknown;
  tgtType: string;
  minions: string[];
  missing: string[];
}

/** Throws `SALT_ERR_TARGET_INVALID` for a bad target. */
export async function expectedMinions(
  config: TargetingConfig,
  tgt: unknown,
  tgtType: string,
  delimiter?: string,
): Promise<ExpectedMinions> {
  const nodegroups = config.nodegroups as Parameters<typeof resolveNodegroups>[2];
  const resolved = resolveNodegroups(
    tgt as Parameters<typeof resolveNodegroups>[0],
    tgtType,
    nodegroups,
    config.conf_file,
  );
  const accepted = acceptedMinionIds(config.pki_dir);
  const cacheEnabled = config.minion_data_cache;
  const data =
    cacheEnabled && needsMinionData(resolved.tgtType, resolved.tgt)
      ? await loadMinionDataCache(config.cachedir, accepted)
      : undefined;
  const { minions, missing } = checkMinions(resolved.tgt, resolved.tgtType, {
    accepted,
    data,
    cacheEnabled,
    delimiter,
    nodegroups,
    nodegroupsFile: config.conf_file,
  });
  return { tgt: resolved.tgt, tgtType: resolved.tgtType, minions, missing };
}
