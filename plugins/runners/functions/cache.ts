/**
 * Salt's `cache` runner (`salt/runners/cache.py`), reading side: the grains and pillar of the
 * targeted minions from the master's minion data cache (`<cachedir>/minions/<id>/data.p`,
 * written when a minion reports its grains). A targeted minion with nothing cached gets `{}`,
 * as do all of them when `minion_data_cache` is off; a target matching nothing gives `{}`.
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction, type RunnerContext } from '../../../kernel/index.js';
import { expectedMinions, readMinionData, type TargetingConfig } from '../../../kernel/services.js';

const target = z.union([z.string(), z.array(z.string())]);
const tgtType = z.string().default('glob');

function targeting(opts: Readonly<Record<string, unknown>>): TargetingConfig {
  const str = (k: string) => (typeof opts[k] === 'string' ? (opts[k] as string) : '');
  const nodegroups = opts.nodegroups;
  return {
    pki_dir: str('pki_dir'),
    cachedir: str('cachedir'),
    minion_data_cache: opts.minion_data_cache !== false,
    nodegroups: nodegroups && typeof nodegroups === 'object' ? (nodegroups as Record<string, unknown>) : {},
    conf_file: str('conf_file'),
  };
}

/** `{minion: cached bank}` for the minions the target matches (Salt's MasterPillarUtil, cache only). */
export async function cachedBank(
  ctx: Pick<RunnerContext, 'opts'>,
  tgt: string | string[],
  type: string,
  bank: 'grains' | 'pillar',
): Promise<Record<string, unknown>> {
  const cfg = targeting(ctx.opts);
  const { minions } = await expectedMinions(cfg, tgt, type);
  const out: Record<string, unknown> = {};
  const ids = [...minions].sort();
  const data = cfg.minion_data_cache
    ? await Promise.all(ids.map((id) => readMinionData(cfg.cachedir, id)))
    : [];
  ids.forEach((id, i) => {
    const value = data[i]?.[bank];
    out[id] = value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  });
  return out;
}

export default defineRunner({
  name: 'cache',
  doc: "Return cached data from minions: the master's minion data cache.",
  functions: {
    grains: defineRunnerFunction({
      args: z.object({ tgt: target, tgt_type: tgtType }),
      doc: 'Return cached grains of the targeted minions.',
      run: (ctx, a) => cachedBank(ctx, a.tgt, a.tgt_type, 'grains'),
    }),
    pillar: defineRunnerFunction({
      args: z.object({ tgt: target.nullish(), tgt_type: tgtType }),
      doc: 'Return cached pillars of the targeted minions (all minions without tgt).',
      run: (ctx, a) => cachedBank(ctx, a.tgt ?? '*', a.tgt_type, 'pillar'),
    }),
  },
});
