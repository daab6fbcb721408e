/**
 * The minions a target addresses, as the master resolves them (Salt's `_prep_pub` +
 * `CkMinions.check_minions`): nodegroups expanded to a compound target, accepted keys, and
 * the minion data cache when the target type needs grains or pillar. Used by the master's
 * publish handler and by the CLI's `--batch-safe-limit` preview.
 */
import { acceptedMinionIds } from './accepted-keys.js';
import { type CheckContext, checkMinions, needsMinionData } from './check-minions.js';
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

/** The target as published (nodegroups resolved) and what checking it needs; throws for a bad one. */
export async function targetCheckInput(
  config: TargetingConfig,
  tgt: unknown,
  tgtType: string,
  delimiter?: string,
): Promise<{ tgt: unknown; tgtType: string; ctx: CheckContext }> {
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
  return {
    tgt: resolved.tgt,
    tgtType: resolved.tgtType,
    ctx: { accepted, data, cacheEnabled, delimiter, nodegroups, nodegroupsFile: config.conf_file },
  };
}

/** Throws `SALT_ERR_TARGET_INVALID` for a bad target. */
export async function expectedMinions(
  config: TargetingConfig,
  tgt: unknown,
  tgtType: string,
  delimiter?: string,
): Promise<ExpectedMinions> {
  const input = await targetCheckInput(config, tgt, tgtType, delimiter);
  const { minions, missing } = checkMinions(input.tgt, input.tgtType, input.ctx);
  return { tgt: input.tgt, tgtType: input.tgtType, minions, missing };
}
