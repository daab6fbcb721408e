/**
 * Salt's `mine` runner (`salt/runners/mine.py`): `get` reads the mine as a minion's `mine.get`
 * does, through the same reading (the `mine_get` ACL applies, to the master's id, as in Salt);
 * `update` has the targeted minions run `mine.update`.
 */
import { hostname } from 'node:os';
import { z } from 'zod';
import { defineRunner, defineRunnerFunction, type RunnerContext } from '../../../kernel/index.js';
import { gatherMine, mineGetEnv } from '../../mine/index.js';
import { targeting } from './_targeting.js';

const target = z.union([z.string(), z.array(z.string())]);

/** The master's id (`<hostname>_master` unless `id` is set), which asks for the mine here. */
function masterId(opts: Readonly<Record<string, unknown>>): string {
  return typeof opts.id === 'string' && opts.id ? opts.id : `${hostname()}_master`;
}

async function mineGet(ctx: RunnerContext, tgt: unknown, fun: unknown, tgtType: string) {
  const extra = (ctx.opts.extra ?? {}) as Readonly<Record<string, unknown>>;
  const env = mineGetEnv({ ...targeting(ctx.opts), extra }, (message) => ctx.warn(message));
  return gatherMine(env, { id: masterId(ctx.opts), tgt, fun, tgt_type: tgtType });
}

export default defineRunner({
  name: 'mine',
  doc: 'A runner to access data from the salt mine.',
  functions: {
    get: defineRunnerFunction({
      args: z.object({
        tgt: target,
        fun: z.union([z.string(), z.array(z.string())]),
        tgt_type: z.string().default('glob'),
      }),
      doc: "Gathers the data from the specified minions' mine, pass in the target, function to look up and the target type.\n\nCLI Example:\n\n    salt-run mine.get '*' network.interfaces",
      run: (ctx, a) => mineGet(ctx, a.tgt, a.fun, a.tgt_type),
    }),
    update: defineRunnerFunction({
      args: z.object({
        tgt: target,
        tgt_type: z.string().default('glob'),
        clear: z.boolean().default(false),
        mine_functions: z.unknown().optional(),
      }),
      doc: "Update the mine data on a certain group of minions (they run mine.update); `clear` replaces their mine, `mine_functions` updates only these.\n\nCLI Example:\n\n    salt-run mine.update '*'",
      run: (ctx, a) =>
        ctx.client.cmd(a.tgt, 'mine.update', [], {
          tgtType: a.tgt_type,
          kwargs: { clear: a.clear, mine_functions: a.mine_functions ?? null },
        }),
    }),
  },
});
