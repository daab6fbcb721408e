/**
 * Salt's `ret` execution module (`salt/modules/ret.py`): reads what a returner stored, through
 * the returner itself (`get_jid`, `get_fun`, `get_jids`, `get_minions`), with this minion's
 * config. A returner that is missing, or that lacks the function (Salt's local_cache has no
 * `get_fun` nor `get_minions`), fails as Salt's loader lookup does: a KeyError naming it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  masterReturnerLoader,
  type ResolvedMasterConfig,
  type ReturnerDef,
} from '../kernel/index.js';
import { BUILTIN_RETURNERS } from '../plugins/builtin-dirs.js';
import { pythonError } from './_py-exception.js';
import { returnerFunctions } from './_returner-functions.js';

/** Salt's local_cache lists its jobs folder, which a minion that stored no job lacks. */
function mustHaveJobsDir(ctx: ExecContext): void {
  const dir = join(String(ctx.opts.cachedir), 'jobs');
  if (!existsSync(dir))
    throw pythonError('FileNotFoundError', `[Errno 2] No such file or directory: '${dir}'`);
}

/** Calls `<returner>.<fun>` with `args`, as Salt's `returners["<returner>.<fun>"](*args)`. */
async function callReturner(
  ctx: ExecContext,
  returner: string,
  fun: string,
  args: string[],
): Promise<unknown> {
  // the loader reads extension_modules, returner_dirs and extensions, which a minion's config has too
  const config = ctx.opts as unknown as ResolvedMasterConfig;
  const loader = masterReturnerLoader(config, ctx.log, BUILTIN_RETURNERS);
  const missing = () => pythonError('KeyError', `'${returner}.${fun}'`);
  let def: ReturnerDef;
  try {
    ({ def } = await loader.get(returner));
  } catch {
    throw missing();
  }
  const method = returnerFunctions(returner, new Set(Object.keys(def))).get(fun)?.method;
  if (!method) throw missing();
  const rctx = loader.context(def);
  try {
    switch (method) {
      case 'getJid':
        return await def.getJid?.(String(args[0]), rctx);
      case 'getFun':
        return await def.getFun?.(String(args[0]), rctx);
      case 'getJids':
        if (returner === 'local_cache') mustHaveJobsDir(ctx);
        return await def.getJids?.(rctx);
      case 'getMinions':
        return await def.getMinions?.(rctx);
      default:
        throw missing();
    }
  } finally {
    await def.close?.(rctx);
  }
}

export default defineModule({
  name: 'ret',
  doc: 'Reads back what a returner stored: a job, the jobs, the minions, the last run of a function.',
  functions: {
    get_jid: defineFunction({
      args: (z) => z.object({ returner: z.string(), jid: z.coerce.string() }),
      doc: "The returns the returner holds for one job id, by minion.\n\nCLI Example:\n\n.. code-block:: bash\n\n    salt '*' ret.get_jid local_cache 20261129101500123456",
      run: (ctx, a) => callReturner(ctx, a.returner, 'get_jid', [a.jid]),
    }),
    get_fun: defineFunction({
      args: (z) => z.object({ returner: z.string(), fun: z.string() }),
      doc: "For each minion, the job id of the last time the returner saw it run fun.\n\nCLI Example:\n\n.. code-block:: bash\n\n    salt '*' ret.get_fun redis test.ping",
      run: (ctx, a) => callReturner(ctx, a.returner, 'get_fun', [a.fun]),
    }),
    get_jids: defineFunction({
      args: (z) => z.object({ returner: z.string() }),
      doc: "Every job the returner holds, by job id.\n\nCLI Example:\n\n.. code-block:: bash\n\n    salt '*' ret.get_jids local_cache",
      run: (ctx, a) => callReturner(ctx, a.returner, 'get_jids', []),
    }),
    get_minions: defineFunction({
      args: (z) => z.object({ returner: z.string() }),
      doc: "Every minion the returner holds returns of.\n\nCLI Example:\n\n.. code-block:: bash\n\n    salt '*' ret.get_minions redis",
      run: (ctx, a) => callReturner(ctx, a.returner, 'get_minions', []),
    }),
  },
});
