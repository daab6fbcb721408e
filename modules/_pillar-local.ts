/**
 * A masterless minion's fresh pillar compile (Salt's `pillar.items` with `file_client: local`:
 * `get_pillar(...).compile_pillar()` on the minion itself): the pillar plugin's compile over the
 * minion's own `pillar_roots` and `ext_pillar`, for the asked pillarenv, with the minion's
 * in-memory pillar under it when `ssh_merge_pillar` is on (Salt's minion default).
 */
import type { ExecContext, PillarAsk } from '../kernel/index.js';
import { isMapping } from './_traverse.js';

/** The options with `ext` appended to their `ext_pillar` list (a malformed list stays as it is: the compile reports it). */
function withExt<O extends { extPillar: unknown }>(
  o: O,
  ext: Readonly<Record<string, unknown>> | undefined,
): O {
  if (ext === undefined) return o;
  return { ...o, extPillar: Array.isArray(o.extPillar) ? [...o.extPillar, ext] : [ext] };
}

export async function compileLocalPillar(
  ctx: ExecContext,
  ask: PillarAsk,
  kept: Readonly<Record<string, unknown>>,
  /** One more external pillar after the configured ones (Salt's on-demand `ext`, pillar.ext). */
  ext?: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const { BUILTIN_EXT_PILLARS, compilePillar, pillarOptions, saltFunctionsOf } = await import(
    '../plugins/pillar/index.js'
  );
  const salt = saltFunctionsOf(ctx);
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
      options: withExt(pillarOptions(ctx.opts), ext),
      extPillars: new Map(BUILTIN_EXT_PILLARS.map((d) => [d.name, d])),
      log: {
        error: (o, m) => ctx.log.error(o, m),
        warn: (o, m) => ctx.log.warn(o, m),
        debug: (o, m) => ctx.log.debug(o, m),
      },
      role: 'minion',
      mergeUnder: merge ? kept : undefined,
      functions: () => salt,
    },
  );
}
