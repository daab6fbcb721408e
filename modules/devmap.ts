/**
 * Salt's `devmap` execution module (`salt/modules/devmap.py`): Device-Mapper Multipath's
 * `multipath -l` listing and `multipath -f` flush, each run through `cmd.run` as Salt's.
 */
import { existsSync } from 'node:fs';
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pySplitlines, pyStr } from '../kernel/util.js';

const runLines = async (ctx: ExecContext, cmd: string): Promise<string[]> =>
  pySplitlines(String(await ctx.call('cmd.run', [cmd])));

export default defineModule({
  name: 'devmap',
  doc: 'Device-Mapper module',
  functions: {
    multipath_list: defineFunction({
      args: (z) => z.object({}),
      doc: `Device-Mapper Multipath list

CLI Example:

    salt '*' devmap.multipath_list`,
      run: (ctx) => runLines(ctx, 'multipath -l'),
    }),
    multipath_flush: defineFunction({
      args: (z) => z.object({ device: z.unknown().transform(pyStr) }),
      doc: `Device-Mapper Multipath flush

CLI Example:

    salt '*' devmap.multipath_flush mpath1`,
      run: async (ctx, a) => {
        if (!existsSync(a.device)) return `${a.device} does not exist`;
        return runLines(ctx, `multipath -f ${a.device}`);
      },
    }),
  },
});
