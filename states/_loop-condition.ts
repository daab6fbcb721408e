/**
 * `loop.until`'s `condition`: Salt hands it to Python's `eval` with `m_ret` (the function's
 * return) in scope. tsalt evaluates it as a Jinja expression, whose syntax is Python's for what
 * conditions use (comparisons, `in`, `not`, `and`/`or`, subscripts, `.get()`, literals), after
 * two rewrites: `is [not] True/False/None` becomes Jinja's `is [not] true/false/none` test, and
 * Python's built-ins conditions call (`len`, `str`, `int`, `float`, `bool`, `abs`, `min`, `max`,
 * `any`, `all`, `sorted`) are in scope.
 */
import type { ExecContext } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { isMapping } from '../modules/_traverse.js';
import { JinjaFunction, lookedUpSaltFunctions, renderJinja } from '../plugins/renderers/index.js';

/** `is True` → `is true` outside string literals (Jinja's tests are lower case). */
export function jinjaCondition(condition: string): string {
  let out = '';
  let i = 0;
  while (i < condition.length) {
    const c = condition[i] as string;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < condition.length && condition[j] !== c) j += condition[j] === '\\' ? 2 : 1;
      out += condition.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const m = /^\bis(\s+not)?\s+(True|False|None)\b/.exec(condition.slice(i));
    if (m && (i === 0 || !/\w/.test(condition[i - 1] as string))) {
      out += `is${m[1] ?? ''} ${(m[2] as string).toLowerCase()}`;
      i += m[0].length;
      continue;
    }
    out += c;
    i += 1;
  }
  return out;
}

const items = (v: unknown): unknown[] =>
  Array.isArray(v) ? v : typeof v === 'string' ? [...v] : isMapping(v) ? Object.keys(v) : [];

/** Python's built-ins a condition may call, over plain data. */
const PY_BUILTINS: Readonly<Record<string, (...a: unknown[]) => unknown>> = {
  len: (v) => (typeof v === 'string' ? [...v].length : items(v).length),
  str: (v) => pyStr(v),
  int: (v) => Math.trunc(Number(v)),
  float: (v) => Number(v),
  bool: (v) => pyTruthy(v),
  abs: (v) => Math.abs(Number(v)),
  min: (...a) => (a.length === 1 ? items(a[0]) : a).reduce((x, y) => ((y as number) < (x as number) ? y : x)),
  max: (...a) => (a.length === 1 ? items(a[0]) : a).reduce((x, y) => ((y as number) > (x as number) ? y : x)),
  any: (v) => items(v).some(pyTruthy),
  all: (v) => items(v).every(pyTruthy),
  sorted: (v) => [...items(v)].sort(),
};

const BUILTINS: Readonly<Record<string, JinjaFunction>> = Object.fromEntries(
  Object.entries(PY_BUILTINS).map(([name, fn]) => [name, new JinjaFunction(name, (args) => fn(...args))]),
);

/** Whether `condition` holds for `m_ret` (Python's truthiness of the expression's value). */
export async function conditionHolds(
  ctx: ExecContext,
  condition: string,
  scope: Readonly<Record<string, unknown>>,
): Promise<boolean> {
  const salt = lookedUpSaltFunctions(
    (fun, args, kwargs) => ctx.call(fun, args, kwargs),
    async (fun) => (await ctx.functions.get(fun)) !== undefined,
  );
  const source = `{{ 'T' if (${jinjaCondition(condition)}) else 'F' }}`;
  await salt.prepare(source);
  const pillar = isMapping(ctx.opts.pillar) ? ctx.opts.pillar : {};
  const out = await renderJinja(
    source,
    { grains: ctx.grains, pillar, opts: ctx.opts, salt, saltenv: 'base', extra: { ...BUILTINS, ...scope } },
    { path: '<loop.until condition>' },
  );
  return out.trim() === 'T';
}
