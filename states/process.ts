/**
 * Salt's `process` state module (`salt/states/process.py`): `process.absent` kills the processes
 * whose command line matches a pattern (`ps.pkill` with `full=True`), optionally only a user's,
 * with a chosen signal.
 */
import { pyTruthy } from '../kernel/util.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

export default defineStateModule({
  name: 'process',
  doc: 'Process management: ensure no process whose command line matches a pattern runs (process.absent).',
  functions: {
    absent: defineState({
      args: (z) => z.object({ name: z.string(), user: z.string().nullish(), signal: z.unknown().optional() }),
      doc: "Ensures that the named command is not running.\n\nname: the pattern to match (the full command line, as pgrep -f).\nuser: only this user's processes.\nsignal: the signal to send (default SIGTERM).",
      async run(ctx, a): Promise<StateReturn> {
        const ret: StateReturn = { name: a.name, changes: {}, result: false, comment: '' };
        const user = a.user ?? null;
        if (ctx.test) {
          const running = (await ctx.call('ps.pgrep', [a.name], { user })) as unknown[] | null;
          const n = Array.isArray(running) ? running.length : 0;
          return {
            ...ret,
            result: null,
            comment: n ? `${n} processes will be killed` : 'No matching processes running',
          };
        }
        const kwargs: Record<string, unknown> = { user, full: true };
        if (pyTruthy(a.signal)) kwargs.signal = a.signal; // Salt's `if signal:`
        const status = (await ctx.call('ps.pkill', [a.name], kwargs)) as { killed?: unknown[] } | null;
        if (status && Object.keys(status).length > 0) {
          return {
            ...ret,
            result: true,
            comment: `Killed ${Array.isArray(status.killed) ? status.killed.length : 0} processes`,
            changes: status,
          };
        }
        return { ...ret, result: true, comment: 'No matching processes running' };
      },
    }),
  },
});
