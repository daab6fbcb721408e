/**
 * Salt's `status` state module (`salt/states/status.py`), monitoring states: `status.loadavg`
 * holds when a load average lies between a minimum and a maximum, `status.process` when a
 * process matching a signature runs. The measured value is returned under `data`, as Salt's.
 */
import { pyFloatRepr, pyStr, pyTruthy } from '../kernel/util.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { pyCompare } from './_loop-operators.js';

/** Python's `float()` of a threshold given as a number or a string. */
const pyFloat = (v: unknown): number => (typeof v === 'number' ? v : Number.parseFloat(pyStr(v)));

export default defineStateModule({
  name: 'status',
  doc: 'Minion status monitoring: load averages and processes (status.loadavg, status.process).',
  functions: {
    loadavg: defineState({
      args: (z) =>
        z.object({ name: z.string(), maximum: z.unknown().optional(), minimum: z.unknown().optional() }),
      doc: 'Return the current load average for the specified minion. Available values for name are `1-min`, `5-min` and `15-min`. `minimum` and `maximum` values should be passed in as strings.',
      async run(ctx, a): Promise<StateReturn> {
        const ret: StateReturn = { name: a.name, result: false, comment: '', changes: {}, data: {} };
        const data = (await ctx.call('status.loadavg', [])) as Record<string, number>;
        if (!(a.name in data)) return { ...ret, comment: `Requested load average ${a.name} not available ` };
        const { minimum, maximum } = a;
        if (pyTruthy(minimum) && pyTruthy(maximum) && pyCompare('ge')?.(minimum, maximum))
          return { ...ret, comment: 'Min must be less than max' };
        const cap = Number(data[a.name]);
        const shown = pyFloatRepr(cap);
        if (pyTruthy(minimum) && cap < pyFloat(minimum))
          return {
            ...ret,
            data: data[a.name],
            comment: `Load avg is below minimum of ${pyStr(minimum)} at ${shown}`,
          };
        if (pyTruthy(maximum) && cap > pyFloat(maximum))
          return {
            ...ret,
            data: data[a.name],
            comment: `Load avg above maximum of ${pyStr(maximum)} at ${shown}`,
          };
        return { ...ret, data: data[a.name], result: true, comment: 'Load avg in acceptable range' };
      },
    }),
    process: defineState({
      args: (z) => z.object({ name: z.string() }),
      doc: 'Return whether the specified signature is found in the process tree. This differs slightly from the services states, in that it may refer to a process that is not managed via the init system.',
      async run(ctx, a): Promise<StateReturn> {
        const ret: StateReturn = { name: a.name, result: false, comment: '', changes: {}, data: {} };
        const data = await ctx.call('status.pid', [a.name]);
        if (!pyTruthy(data)) return { ...ret, comment: `Process signature "${a.name}" not found ` };
        return { ...ret, data, result: true, comment: `Process signature "${a.name}" was found ` };
      },
    }),
  },
});
