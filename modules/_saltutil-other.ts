/**
 * The last of Salt's `saltutil` functions: `mmodule` (run an execution module function for a
 * file-server environment) and `update` (Salt's esky self-updater, which tsalt, not being an
 * esky build, answers as Salt does without esky).
 */
import { defineFunction, SALT_ERR_EXEC_SYNC } from '../kernel/index.js';
import { pyRepr } from '../kernel/util.js';

export const otherFunctions = {
  mmodule: defineFunction({
    args: (zod) => zod.object({ saltenv: zod.string(), fun: zod.string() }),
    varargs: true,
    varkw: true,
    doc: "Run the execution module function `fun` with the given arguments for file-server environment `saltenv` (one of file_roots), as pillar rendering for that environment would.\n\nCLI Example: salt '*' saltutil.mmodule base test.ping",
    run: async (ctx, a, extra) => {
      const roots = ctx.opts.file_roots;
      const envs = typeof roots === 'object' && roots !== null ? (roots as Record<string, unknown>) : {};
      if (!(a.saltenv in envs)) throw new SALT_ERR_EXEC_SYNC(pyRepr(a.saltenv));
      // Salt passes the job's keywords on as they are, `__pub_*` ones included
      return ctx.call(a.fun, extra.args, extra.kwargs);
    },
  }),
  update: defineFunction({
    args: (zod) => zod.object({ version: zod.unknown().default(null) }),
    doc: "Salt's esky self-update. tsalt is not an esky build: it answers `{_error: 'Esky not available as import'}`, as Salt does without esky; update tsalt with its package manager.\n\nCLI Example: salt '*' saltutil.update 0.10.3",
    run: () => ({ _error: 'Esky not available as import' }),
  }),
};
