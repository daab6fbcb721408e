/**
 * Salt's `drbd` execution module (salt/modules/drbd.py): `drbd-overview` (gone from drbd-utils
 * since 9.6) and `drbdadm status`, each run through `cmd.run` as Salt's and read by
 * _drbd-parse.ts, with Salt's answers and Salt's errors for text it cannot read.
 */
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pySplitlines, pyStr } from '../kernel/util.js';
import { parseOverview, parseStatus } from './_drbd-parse.js';

const runLines = async (ctx: ExecContext, cmd: unknown): Promise<string[]> =>
  pySplitlines(String(await ctx.call('cmd.run', [cmd])));

export default defineModule({
  name: 'drbd',
  doc: 'DRBD administration module',
  functions: {
    overview: defineFunction({
      args: (z) => z.object({}),
      doc: `Show the status of the DRBD devices from drbd-overview (two nodes only). drbd-utils 9.6 and later have no drbd-overview: use drbd.status.

CLI Example:

    salt '*' drbd.overview`,
      run: async (ctx) => parseOverview(await runLines(ctx, 'drbd-overview')),
    }),
    status: defineFunction({
      args: (z) => z.object({ name: z.unknown().default('all') }),
      doc: `Show the status of DRBD resources from drbdadm status (drbd 9): any number of nodes and volumes.

name
    The resource name; all of them by default.

CLI Example:

    salt '*' drbd.status
    salt '*' drbd.status name=<resource name>`,
      run: async (ctx, a) => parseStatus(await runLines(ctx, ['drbdadm', 'status', pyStr(a.name)])),
    }),
  },
});
