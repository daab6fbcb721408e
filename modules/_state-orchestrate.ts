/**
 * Salt's `state.orchestrate` on a minion (`salt/modules/state.py` `_orchestrate`): the
 * orchestration SLS runs as `state.sls` on this masterless minion, and the answer is the
 * runner's shape, `{data: {<id>: <run>}, outputter: 'highstate', retcode}`.
 */
import { defineFunction, type ExecContext } from '../kernel/index.js';
import { unwrapRetcode } from '../kernel/util.js';
import { cli, modsArg, sls } from './_state-calls.js';

export async function orchestrate(
  ctx: ExecContext,
  mods: unknown,
  kw: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { value, retcode } = unwrapRetcode(await sls(ctx, mods, kw));
  return { data: { [ctx.id]: value }, outputter: 'highstate', retcode };
}

export const orchestrateFunctions = {
  orchestrate: defineFunction({
    args: (z) =>
      z.object({
        mods: modsArg(z),
        saltenv: z.unknown().default('base'),
        test: z.unknown().optional(),
        exclude: z.unknown().optional(),
        pillar: z.unknown().optional(),
        pillarenv: z.unknown().optional(),
      }),
    doc: `Execute the orchestrate runner from a masterless minion: the SLS runs here as state.sls.${cli('state.orchestrate webserver saltenv=dev test=True')}`,
    run: (ctx, a) => {
      const kw = Object.fromEntries(
        Object.entries({
          saltenv: a.saltenv,
          test: a.test,
          exclude: a.exclude,
          pillar: a.pillar,
          pillarenv: a.pillarenv,
        }).filter(([, v]) => v !== undefined && v !== null),
      );
      return orchestrate(ctx, a.mods, kw);
    },
  }),
};
