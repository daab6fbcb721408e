/**
 * A masterless minion's fresh pillar compile (Salt's `pillar.items` with `file_client: local`:
 * `get_pillar(...).compile_pillar()` on the minion itself): the pillar plugin's compile over the
 * minion's own `pillar_roots` and `ext_pillar`, for the asked pillarenv, with the minion's
 * in-memory pillar under it when `ssh_merge_pillar` is on (Salt's minion default).
 */
import type { ExecContext, PillarAsk } from '../kernel/index.js';
import { isMapping } from './_traverse.js';

export async function compileLocalPillar(
  ctx: ExecContext,
  ask: PillarAsk,
  kept: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const { BUILTIN_EXT_PILLARS, compilePillar, pillarOptions } = await import('../plugins/pillar/index.js');
  const extra = isMapping(ctx.opts.extra) ? ctx.opts.extra : {};
  const merge = (ctx.opts.ssh_merge_pillar ?? extra.ssh_merge_pillar) !== false;
  return compilePillar(
    {
      id: ctx.id,
      grains: ctx.grains,
      saltenv: ask.saltenv,
      pillarenv: ask.pillarenv,
      pillarOverride: ask.pillarOverride,
      extraMinionData: {},
    },
    {
      options: pillarOptions(ctx.opts),
      extPillars: new Map(BUILTIN_EXT_PILLARS.map((d) => [d.name, d])),
      salt: (await import('../plugins/sdb/index.js')).sdbSaltFunctions(ctx.opts, ctx.log),
      log: {
        error: (o, m) => ctx.log.error(o, m),
        warn: (o, m) => ctx.log.warn(o, m),
        debug: (o, m) => ctx.log.debug(o, m),
      },
      role: 'minion',
      mergeUnder: merge ? kept : undefined,
    },
  );
}
