/**
 * Salt's `cache` runner (`salt/runners/cache.py`), reading side: the grains and pillar of the
 * targeted minions from the master's minion data cache (`<cachedir>/minions/<id>/data.p`,
 * written when a minion reports its grains). A targeted minion with nothing cached gets `{}`,
 * as do all of them when `minion_data_cache` is off; a target matching nothing gives `{}`.
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction, type RunnerContext } from '../../../kernel/index.js';
import { expectedMinions, listCachedMinions, readMinionData } from '../../../kernel/services.js';
import { isValidMinionId } from '../../../kernel/util.js';
import { mineMasterOptions, readMine } from '../../mine/index.js';
import { targeting } from './_targeting.js';

const target = z.union([z.string(), z.array(z.string())]);
const tgtType = z.string().default('glob');

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

/**
 * `{minion: mine}` for the targeted minions (Salt's `MasterPillarUtil.get_cached_mine_data`):
 * `{}` for one with no mine; every cached minion when the target matches none, as in Salt.
 */
export async function cachedMine(
  ctx: Pick<RunnerContext, 'opts'>,
  tgt: string | string[],
  type: string,
): Promise<Record<string, unknown>> {
  const cfg = targeting(ctx.opts);
  const { minions } = await expectedMinions(cfg, tgt, type);
  const out: Record<string, unknown> = Object.fromEntries(minions.map((id) => [id, {}]));
  const extra = (ctx.opts.extra ?? {}) as Readonly<Record<string, unknown>>;
  if (!cfg.minion_data_cache && !mineMasterOptions.read({ extra }).enforce_mine_cache) return out;
  const ids = minions.length > 0 ? minions : await listCachedMinions(cfg.cachedir);
  for (const id of ids) {
    if (!isValidMinionId(id)) continue;
    const mine = await readMine(cfg.cachedir, id);
    if (mine) out[id] = mine;
  }
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
    mine: defineRunnerFunction({
      args: z.object({ tgt: target.nullish(), tgt_type: tgtType }),
      varkw: true,
      doc: 'Return the cached mine data of the targeted minions (all minions without tgt).',
      run: (ctx, a) => cachedMine(ctx, a.tgt ?? '*', a.tgt_type),
    }),
  },
});
