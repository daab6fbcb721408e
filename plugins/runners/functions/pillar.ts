/**
 * Salt's `pillar` runner (`salt/runners/pillar.py`): `show_pillar` compiles a minion's pillar
 * on the master from its cached grains (extra keywords become grains, `saltenv`/`pillarenv`
 * pick environments), `show_top` the merged pillar top file. Only tsalt's built-in external
 * pillars run here (a plugin's own `pillar.ext` units live in the master's request workers).
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction, type RunnerContext } from '../../../kernel/index.js';
import { listCachedMinions, readMinionData } from '../../../kernel/services.js';
import { globMatch } from '../../../kernel/util.js';
import {
  BUILTIN_EXT_PILLARS,
  type CompileEnv,
  compilePillar,
  compileTop,
  masterPillarFunctions,
  type PillarRequest,
  pillarOptions,
} from '../../pillar/index.js';

function compileEnv(ctx: RunnerContext): CompileEnv {
  return {
    options: pillarOptions(ctx.opts),
    extPillars: new Map(BUILTIN_EXT_PILLARS.map((d) => [d.name, d])),
    log: ctx.log,
    functions: masterPillarFunctions(ctx.opts, ctx.log),
  };
}

/** Salt's `get_minion_data`: the first cached minion the glob names, with its grains. */
async function minionData(
  ctx: RunnerContext,
  minion: string,
): Promise<{ id: string; grains: Record<string, unknown> }> {
  const cachedir = String(ctx.opts.cachedir ?? '');
  const ids = (await listCachedMinions(cachedir)).filter((id) => globMatch(minion, id)).sort();
  for (const id of ids) {
    const data = await readMinionData(cachedir, id);
    if (data?.grains) return { id, grains: { ...data.grains } };
  }
  return { id: minion, grains: { fqdn: minion } };
}

export default defineRunner({
  name: 'pillar',
  doc: 'Functions to interact with the pillar compiler on the master.',
  functions: {
    show_pillar: defineRunnerFunction({
      args: z.object({ minion: z.string().default('*') }),
      varkw: true,
      doc: 'Returns the compiled pillar of a minion (from its cached grains; extra keywords are set as grains).\n\nCLI Example: salt-run pillar.show_pillar minion1 pillarenv=dev',
      run: async (ctx, a, extra) => {
        const { id, grains } = await minionData(ctx, a.minion);
        let saltenv: string | null = 'base';
        let pillarenv: string | null = null;
        for (const [k, v] of Object.entries(extra.kwargs)) {
          if (k.startsWith('__')) continue;
          if (k === 'saltenv') saltenv = v == null ? null : String(v);
          else if (k === 'pillarenv') pillarenv = v == null ? null : String(v);
          else grains[k] = v;
        }
        const req: PillarRequest = {
          id,
          grains,
          saltenv,
          pillarenv,
          pillarOverride: {},
          extraMinionData: {},
        };
        return compilePillar(req, compileEnv(ctx));
      },
    }),
    show_top: defineRunnerFunction({
      args: z.object({ minion: z.string().nullish(), saltenv: z.string().default('base') }),
      doc: 'Returns the merged pillar top file (every environment), or its render errors.\n\nCLI Example: salt-run pillar.show_top minion=minion1',
      run: async (ctx, a) => {
        const { id, grains } = await minionData(ctx, a.minion ?? '*');
        const req: PillarRequest = {
          id,
          grains,
          saltenv: a.saltenv,
          pillarenv: null,
          pillarOverride: {},
          extraMinionData: {},
        };
        const { top, errors } = await compileTop(req, compileEnv(ctx));
        if (errors.length > 0) {
          ctx.progress({ data: errors, outputter: 'nested' });
          return errors;
        }
        return Object.fromEntries([...top].map(([env, targets]) => [env, Object.fromEntries(targets)]));
      },
    }),
  },
});
