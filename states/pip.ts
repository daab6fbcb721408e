/**
 * Salt's `pip` state module (`salt/states/pip_state.py`): `pip.installed` (`_pip-installed.ts`)
 * and `pip.removed`, which uninstalls a Python package that `pip.list` shows, through the `pip`
 * execution module.
 */

import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { pipHelpers } from './_pip-helpers.js';
import { pipInstalled } from './_pip-installed.js';
import { uptodate } from './_pip-uptodate.js';

const removed = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      requirements: z.unknown().optional(),
      bin_env: z.string().nullish(),
      log: z.string().nullish(),
      proxy: z.unknown().optional(),
      timeout: z.unknown().optional(),
      user: z.string().nullish(),
      cwd: z.string().nullish(),
      use_vt: z.boolean().default(false),
    }),
  doc: 'Make sure that a package is not installed (in the virtualenv bin_env when given).',
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, result: null, comment: '', changes: {} };
    let listed: Record<string, string>;
    try {
      listed = (await ctx.call('pip.list', [], { bin_env: a.bin_env, user: a.user, cwd: a.cwd })) as Record<
        string,
        string
      >;
    } catch (err) {
      return { ...ret, result: false, comment: `Error uninstalling '${a.name}': ${(err as Error).message}` };
    }
    if (!(a.name in listed)) return { ...ret, result: true, comment: 'Package is not installed.' };
    if (ctx.test) return { ...ret, result: null, comment: `Package ${a.name} is set to be removed` };
    // pip.uninstall answers pip's run (a dict, always truthy), as in Salt
    const r = await ctx.call('pip.uninstall', [], {
      pkgs: a.name,
      requirements: a.requirements,
      bin_env: a.bin_env,
      log: a.log,
      proxy: a.proxy,
      timeout: a.timeout,
      user: a.user,
      cwd: a.cwd,
      use_vt: a.use_vt,
    });
    if (r)
      return {
        ...ret,
        result: true,
        changes: { [a.name]: 'Removed' },
        comment: 'Package was successfully removed.',
      };
    return { ...ret, result: false, comment: 'Could not remove package.' };
  },
});

export default defineStateModule({
  name: 'pip',
  doc: 'Installation of Python packages using pip (pip.installed, pip.removed, pip.uptodate).',
  functions: { installed: pipInstalled, removed, uptodate, ...pipHelpers },
});
