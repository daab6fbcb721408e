/**
 * A masterless minion's pillar (Salt's `salt-call --local` / `file_client: local`, where the
 * minion compiles `pillar_roots` and its `ext_pillar` itself, as a master would for it): the
 * pillar plugin's compile over the minion's own options, so `pillar.*`, templates and state
 * runs see the same data they would from a master.
 */
import { compilePillar } from '../plugins/pillar/compile.js';
import { BUILTIN_EXT_PILLARS } from '../plugins/pillar/ext/builtins.js';
import { pillarOptions } from '../plugins/pillar/options.js';
import type { PillarLog } from '../plugins/pillar/pillar-log.js';
import { sdbSaltFunctions } from '../plugins/sdb/index.js';

export async function localPillar(
  opts: Readonly<Record<string, unknown>>,
  id: string,
  grains: Readonly<Record<string, unknown>>,
  log: PillarLog,
): Promise<Record<string, unknown>> {
  const options = pillarOptions(opts);
  const extra = (opts.extra ?? {}) as Readonly<Record<string, unknown>>;
  const env = (k: string) => {
    const v = opts[k] ?? extra[k];
    return typeof v === 'string' && v !== '' ? v : null;
  };
  return compilePillar(
    {
      id,
      grains,
      saltenv: env('saltenv'),
      pillarenv: env('pillarenv'),
      pillarOverride: {},
      extraMinionData: {},
    },
    {
      options,
      extPillars: new Map(BUILTIN_EXT_PILLARS.map((d) => [d.name, d])),
      salt: sdbSaltFunctions(opts, log),
      log,
      role: 'minion',
    },
  );
}
