/**
 * Salt's `loop` state module (`salt/states/loop.py`): `loop.until` runs an execution function
 * until a condition on its return holds, `loop.until_no_eval` until its return compares to an
 * expected value, each within a timeout, sleeping `period` seconds between tries.
 */
import { pyTruthy } from '../kernel/util.js';
import { abortableSleep } from '../modules/_abort.js';
import {
  defineState,
  defineStateModule,
  pyClassName,
  pyOrderedStr,
  type StateReturn,
} from '../plugins/states/index.js';
import { conditionHolds } from './_loop-condition.js';
import { pyCompare } from './_loop-operators.js';

const isNumber = (v: unknown): v is number => typeof v === 'number' || typeof v === 'boolean';
const seconds = (v: number | boolean): number => Number(v) * 1000;

/** Python's `*args` of a value: a list as it is, a string's characters, a mapping's keys. */
function starArgs(v: unknown): unknown[] {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  if (typeof v === 'object') return Object.keys(v);
  return [v];
}

const kwargsOf = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export default defineStateModule({
  name: 'loop',
  doc: 'Loop an execution module until a condition is met (loop.until, loop.until_no_eval).',
  functions: {
    until: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          m_args: z.unknown().optional(),
          m_kwargs: z.unknown().optional(),
          condition: z.string().nullish(),
          period: z.unknown().default(1),
          timeout: z.unknown().default(60),
        }),
      doc: "Loop over an execution module until a condition is met.\n\nname: the execution function.\nm_args, m_kwargs: its arguments.\ncondition: an expression on m_ret, its return (`m_ret['result'] == True`).\nperiod: seconds between tries (1).\ntimeout: seconds to keep trying (60).",
      async run(ctx, a): Promise<StateReturn> {
        const { name, condition, period, timeout } = a;
        const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
        if (!(await ctx.functions.get(name))) return { ...ret, comment: `Cannot find module ${name}` };
        if (condition === null || condition === undefined)
          return { ...ret, comment: 'An exit condition must be specified' };
        if (!isNumber(period)) return { ...ret, comment: 'Period must be specified as a float in seconds' };
        if (!isNumber(timeout)) return { ...ret, comment: 'Timeout must be specified as a float in seconds' };
        if (ctx.test) return { ...ret, result: null, comment: `The execution module ${name} will be run` };
        const args = starArgs(a.m_args);
        const kwargs = kwargsOf(a.m_kwargs);
        const deadline = Date.now() + seconds(timeout);
        while (Date.now() < deadline) {
          const m_ret = await ctx.call(name, args, kwargs);
          const scope = { m_ret, name, m_args: a.m_args ?? [], m_kwargs: kwargs, condition, period, timeout };
          if (await conditionHolds(ctx, condition, scope))
            return { ...ret, result: true, comment: `Condition ${condition} was met` };
          await abortableSleep(seconds(period), ctx.signal, 'loop.until');
        }
        return { ...ret, comment: `Timed out while waiting for condition ${condition}` };
      },
    }),
    until_no_eval: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          expected: z.unknown(),
          compare_operator: z.string().default('eq'),
          timeout: z.unknown().default(60),
          period: z.unknown().default(1),
          init_wait: z.unknown().default(0),
          args: z.unknown().optional(),
          kwargs: z.unknown().optional(),
        }),
      doc: "Generic waiter state that waits for a specific salt function to produce an expected result.\n\nname: the execution function.\nexpected: the value it should return.\ncompare_operator: an execution function or one of Python's operator module's comparisons ('eq').\ntimeout, period, init_wait: seconds.\nargs, kwargs: the function's arguments.",
      async run(ctx, a): Promise<StateReturn> {
        const { name, expected, compare_operator: op, timeout, period } = a;
        const ret: StateReturn = { name, comment: '', changes: {}, result: false };
        let compare: ((res: unknown) => Promise<unknown>) | undefined;
        if (!(await ctx.functions.get(name))) ret.comment = `Module.function "${name}" is unavailable.`;
        else if (!isNumber(period)) ret.comment = 'Period must be specified as a float in seconds';
        else if (!isNumber(timeout)) ret.comment = 'Timeout must be specified as a float in seconds';
        else if (await ctx.functions.get(op)) compare = (res) => ctx.call(op, [res, expected], {});
        else if (!pyCompare(op)) ret.comment = `Invalid operator "${op}" supplied.`;
        else compare = async (res) => pyCompare(op)?.(res, expected);
        if (ctx.test) {
          ret.result = null;
          ret.comment = `Would have waited for "${name}" to produce "${pyOrderedStr(expected)}".`;
        }
        if (ret.comment || !compare || !isNumber(timeout) || !isNumber(period)) return ret;
        if (isNumber(a.init_wait) && a.init_wait)
          await abortableSleep(seconds(a.init_wait), ctx.signal, 'loop.until_no_eval');
        const args = starArgs(a.args);
        const kwargs = kwargsOf(a.kwargs);
        let attempt = 0;
        const deadline = Date.now() + seconds(timeout);
        while (Date.now() < deadline) {
          attempt += 1;
          let res: unknown;
          try {
            res = await ctx.call(name, args, kwargs);
          } catch (err) {
            const e = err instanceof Error ? err : new Error(String(err));
            return {
              ...ret,
              comment: `Exception occurred while executing ${name}: <class '${pyClassName(e)}'>:${e.message}`,
            };
          }
          if (pyTruthy(await compare(res)))
            return {
              ...ret,
              result: true,
              comment: `Call provided the expected results in ${attempt} attempts`,
            };
          await abortableSleep(seconds(period), ctx.signal, 'loop.until_no_eval');
        }
        return { ...ret, comment: `Call did not produce the expected result after ${attempt} attempts` };
      },
    }),
  },
});
