/**
 * The refresh functions of Salt's `saltutil` module: `refresh_pillar`, `refresh_grains`
 * (a module refresh recomputes the minion's grains, custom grain modules included, and a pillar
 * refresh reports them to the master) and the event-only `refresh_beacons`/`refresh_matchers`.
 */
import { defineFunction, type ExecContext } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { takeKwargs } from './_invalid-kwargs.js';

/**
 * Has the minion fetch its pillar again; true once it is in place, false when the master did not
 * answer within `timeoutS` seconds or there is no minion (salt-call).
 */
export async function refreshPillarNow(ctx: ExecContext, timeoutS = 30): Promise<boolean> {
  const link = ctx.master;
  if (!link?.refreshPillar) return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, timeoutS) * 1000);
  });
  try {
    const refresh = link.refreshPillar;
    return await Promise.race([refresh.call(link).then(() => true), timeout]);
  } catch (err) {
    ctx.log.warn({ err: (err as Error).message }, 'pillar refresh failed');
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** `refresh_pillar` (and Salt's alias `pillar_refresh`). */
export const refreshPillar = defineFunction({
  args: (zod) =>
    zod.object({
      wait: zod.unknown().default(false),
      timeout: zod.coerce.number().default(30),
      clean_cache: zod.unknown().default(true),
    }),
  doc: "Have the minion fetch its pillar from the master again; it fires `minion_pillar_refresh_complete` when done.\n\nReturns True once the new pillar is in place (tsalt waits for it whatever `wait` says), False when the master did not answer within `timeout` seconds.\n\nCLI Example: salt '*' saltutil.refresh_pillar",
  run: (ctx, a) => refreshPillarNow(ctx, a.timeout),
});

/**
 * Salt's `refresh_grains` as `sync_all` and `sync_grains` use it: new job processes (whose
 * modules see the recomputed grains), then, with `pillar`, the grains reported to the master and
 * the pillar fetched again. The minion recomputes its grains before it answers the pillar refresh.
 */
export async function refreshGrainsNow(ctx: ExecContext, pillar = true): Promise<true> {
  ctx.master?.recycle();
  if (pillar) await refreshPillarNow(ctx);
  return true;
}

/** Fires `tag` with `{}` through `event.fire`, as Salt does; False when the event module is missing. */
async function fireRefresh(ctx: ExecContext, tag: string): Promise<unknown> {
  try {
    return await ctx.call('event.fire', [{}, tag]);
  } catch (err) {
    ctx.log.error({ tag, err: (err as Error).message }, 'event module not available: refresh failed');
    return false;
  }
}

/** Salt's `refresh_beacons`: `beacons_refresh` on the minion's bus. */
export const refreshBeacons = (ctx: ExecContext): Promise<unknown> => fireRefresh(ctx, 'beacons_refresh');

export const refreshFunctions = {
  refresh_grains: defineFunction({
    varkw: true,
    doc: "Recompute the minion's grains (custom grain modules synced from salt://_grains included), so the next jobs and targeting see them.\n\nKeywords: refresh_pillar (default True) also reports the grains to the master and fetches the pillar again; clean_pillar_cache (default False) is accepted for Salt's sake. Returns True.\n\nCLI Example: salt '*' saltutil.refresh_grains",
    run: async (ctx, _a, extra) => {
      const kw = takeKwargs(extra.kwargs, ['refresh_pillar', 'clean_pillar_cache']);
      return refreshGrainsNow(ctx, 'refresh_pillar' in kw ? pyTruthy(kw.refresh_pillar) : true);
    },
  }),
  refresh_beacons: defineFunction({
    doc: "Tell the minion to load its beacons anew: fires `beacons_refresh` on the minion's bus (event.fire's return).\n\nCLI Example: salt '*' saltutil.refresh_beacons",
    run: refreshBeacons,
  }),
  refresh_matchers: defineFunction({
    doc: "Tell the minion to load its matchers anew: fires `matchers_refresh` on the minion's bus (event.fire's return).\n\nCLI Example: salt '*' saltutil.refresh_matchers",
    run: (ctx) => fireRefresh(ctx, 'matchers_refresh'),
  }),
};
