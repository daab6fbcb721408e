/**
 * Salt's `npm.bootstrap` (`salt/states/npm.py`): `npm install` of the dependencies of the
 * package.json in the folder `name` (`npm.install` with no package), `--dry-run` under
 * test=True; npm's JSON report decides what is said, as in Salt.
 */
import { pyTruthy } from '../kernel/util.js';
import { defineState, type StateReturn } from '../plugins/states/index.js';

export const bootstrap = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      user: z.string().nullish(),
      silent: z.boolean().default(true),
    }),
  doc: 'Bootstrap the folder name: install the dependencies its package.json lists (npm install).',
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, result: null, comment: '', changes: {} };
    const install = (dryRun: boolean) =>
      ctx.call('npm.install', [], {
        dir: a.name,
        runas: a.user,
        pkg: null,
        silent: a.silent,
        dry_run: dryRun,
      });
    if (ctx.test) {
      try {
        const call = await install(true);
        if (pyTruthy(call))
          return { ...ret, changes: { old: [], new: call }, comment: `${a.name} is set to be bootstrapped` };
        return { ...ret, result: true, comment: `${a.name} is already bootstrapped` };
      } catch (err) {
        return {
          ...ret,
          result: false,
          comment: `Error Bootstrapping '${a.name}': ${(err as Error).message}`,
        };
      }
    }
    let call: unknown;
    try {
      call = await install(false);
    } catch (err) {
      return { ...ret, result: false, comment: `Error Bootstrapping '${a.name}': ${(err as Error).message}` };
    }
    if (!pyTruthy(call)) return { ...ret, result: true, comment: 'Directory is already bootstrapped' };
    // npm.install gives npm's text when it printed no JSON
    if (typeof call === 'string')
      return {
        ...ret,
        result: false,
        changes: call as unknown as StateReturn['changes'],
        comment: 'Could not bootstrap directory',
      };
    return {
      ...ret,
      result: true,
      changes: { [a.name]: 'Bootstrapped' },
      comment: 'Directory was successfully bootstrapped',
    };
  },
});
