/**
 * Salt's `firewall` state module (`salt/states/firewall.py`): `firewall.check` holds when the
 * minion can open a connection to a host and port, through `network.connect` (`proto`,
 * `family` and `timeout` go with it). Under `test=True` nothing is tried and the result is true.
 */
import { pyTruthy } from '../kernel/python/index.js';
import { cleanKwargs } from '../modules/_invalid-kwargs.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

export default defineStateModule({
  name: 'firewall',
  doc: 'Checks that the minion can reach a host on a port (firewall.check).',
  functions: {
    check: defineState({
      args: (z) => z.object({ name: z.string(), port: z.unknown().optional() }),
      varkw: true,
      doc: `Checks if there is an open connection from the minion to the defined host on a specific port.

name: host name or IP address to connect to. port: the port to try.
Other keywords: proto (tcp or udp), family (ipv4 or ipv6), timeout (seconds).`,
      async run(ctx, a, extra): Promise<StateReturn> {
        const kw = cleanKwargs(extra.kwargs);
        if (!('test' in kw)) kw.test = ctx.test;
        if (pyTruthy(kw.test ?? null))
          return { name: a.name, result: true, changes: {}, comment: 'The connection will be tested' };
        const got = (await ctx.call('network.connect', [a.name, a.port ?? null], kw)) as {
          result: boolean;
          comment: string;
        };
        return { name: a.name, result: got.result, changes: {}, comment: got.comment };
      },
    }),
  },
});
