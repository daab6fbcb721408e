/**
 * Salt's `module` state module (`salt/states/module.py`): run execution functions as a
 * state. The 3006 syntax names the functions as keys, `- test.echo: [{text: x}]` (list items
 * that are mappings are keyword arguments, the others positional); the legacy syntax is
 * `module.run: [name: test.echo, text: x]`. A function's return is a failure when it is False,
 * or a mapping holding `result: False` or a non-zero `retcode`.
 */
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

/** Keywords the state system may hand over that are never function names or arguments. */
const IGNORED = new Set(['name', 'sfun', 'returner']);
const isInternal = (k: string) => k.startsWith('__') || IGNORED.has(k);

function dictResult(node: Record<string, unknown>): boolean {
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'result' && v === false) || (k === 'retcode' && v !== 0)) return false;
    if (v && typeof v === 'object' && !Array.isArray(v) && !dictResult(v as Record<string, unknown>))
      return false;
  }
  return true;
}

/** Salt's `_get_result`. */
function resultOf(ret: unknown): boolean {
  if (typeof ret === 'boolean') return ret;
  if (ret && typeof ret === 'object' && !Array.isArray(ret))
    return dictResult(ret as Record<string, unknown>);
  return true;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const pyish = (v: unknown): string =>
  v === true
    ? 'True'
    : v === false
      ? 'False'
      : v === null || v === undefined
        ? 'None'
        : typeof v === 'string'
          ? v
          : JSON.stringify(v);

/** Splits a function's argument list: mappings are keywords, the rest positionals. */
function splitArgs(given: unknown): { args: unknown[]; kwargs: Record<string, unknown> } {
  const list = given === undefined || given === null ? [] : Array.isArray(given) ? given : [given];
  const args: unknown[] = [];
  const kwargs: Record<string, unknown> = {};
  for (const item of list) {
    if (isMap(item)) Object.assign(kwargs, item);
    else args.push(item);
  }
  return { args, kwargs };
}

async function available(ctx: StateContext, fun: string): Promise<boolean> {
  return (await ctx.functions.get(fun)) !== undefined;
}

async function newRun(ctx: StateContext, kwargs: Record<string, unknown>): Promise<StateReturn> {
  const keys = Object.keys(kwargs).filter((k) => !isInternal(k));
  const ret: StateReturn = { name: keys as unknown as string, changes: {}, comment: '', result: null };
  const functions = keys.filter((k) => k.includes('.'));
  if (functions.length === 0) return { ...ret, comment: 'No function provided.', result: false };
  const missing: string[] = [];
  const tests: string[] = [];
  for (const f of functions) {
    const fun = f.split(':')[0] as string;
    if (!(await available(ctx, fun))) missing.push(fun);
    else if (ctx.test) tests.push(fun);
  }
  if (missing.length > 0 || tests.length > 0) {
    const parts = [
      missing.length > 0
        ? `Unavailable function${missing.length > 1 ? 'True' : ''}: ${missing.join(', ')}.`
        : '',
      tests.length > 0 ? `Function${tests.length > 1 ? 'True' : ''} ${tests.join(', ')} to be executed.` : '',
    ];
    ret.comment = parts.join(' ').trim();
    if (missing.length > 0) ret.result = false;
    return ret;
  }
  const failures: string[] = [];
  const success: string[] = [];
  const changes: Record<string, unknown> = {};
  for (const f of functions) {
    const fun = f.split(':')[0] as string;
    const { args, kwargs: kw } = splitArgs(kwargs[f]);
    try {
      const out = await ctx.call(fun, args, kw);
      if (!resultOf(out)) {
        if (isMap(out)) failures.push(`'${f}' failed: ${pyish(out.comment ?? '(error message N/A)')}`);
        if (out === false) failures.push(`'${f}': False`);
      } else {
        success.push(`${f}: ${isMap(out) ? pyish(out.comment ?? 'Success') : pyish(out)}`);
        changes[f] = out;
      }
    } catch (err) {
      failures.push(`'${f}' failed: ${errText(err)}`);
    }
  }
  ret.changes = changes;
  ret.comment = [...failures, ...success].join(', ');
  ret.result = failures.length === 0;
  return ret;
}

/** Salt's legacy syntax: `name` is the function, the other keywords its arguments (`m_name` for its own `name`). */
async function legacyRun(
  ctx: StateContext,
  name: string,
  kwargs: Record<string, unknown>,
): Promise<StateReturn> {
  const ret: StateReturn = { name, changes: {}, comment: '', result: null };
  if (!(await available(ctx, name)))
    return { ...ret, comment: `Module function ${name} is not available`, result: false };
  if (ctx.test) return { ...ret, comment: `Module function ${name} is set to execute` };
  const renamed: Record<string, string> = {
    m_name: 'name',
    m_fun: 'fun',
    m_names: 'names',
    m_state: 'state',
    m_saltenv: 'saltenv',
  };
  const kw: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(kwargs)) if (!isInternal(k)) kw[renamed[k] ?? k] = v;
  let args: unknown[] = [];
  if ('args' in kw && Array.isArray(kw.args)) {
    args = kw.args as unknown[];
    delete kw.args;
  }
  if ('kwargs' in kw && isMap(kw.kwargs)) {
    Object.assign(kw, kw.kwargs);
    delete kw.kwargs;
  }
  let out: unknown;
  try {
    out = await ctx.call(name, args, kw);
  } catch (err) {
    return {
      ...ret,
      comment: `Module function ${name} threw an exception. Exception: ${errText(err)}`,
      result: false,
    };
  }
  ret.changes = { ret: out };
  ret.comment = `Module function ${name} executed`;
  ret.result = resultOf(out);
  return ret;
}

const run = defineState({
  varkw: true,
  doc: 'Run one or more execution functions: `- test.echo: [{text: x}]` (or the legacy `name: test.echo` form).',
  run(ctx, _a, extra) {
    const kwargs = extra.kwargs;
    const keys = Object.keys(kwargs).filter((k) => !isInternal(k));
    const legacy =
      keys.some((k) => !k.includes('.')) || (keys.length === 0 && Object.keys(kwargs).length > 0);
    if (legacy) return legacyRun(ctx, String(kwargs.name ?? ''), kwargs);
    return newRun(ctx, kwargs);
  },
});

/** Salt's `module.wait` (and its alias `module.watch`): nothing until a watch requisite fires mod_watch. */
const wait = defineState({
  args: (z) => z.object({ name: z.string() }),
  varkw: true,
  doc: 'Run the function only when a watch requisite fires (through mod_watch).',
  run: (_ctx, { name }) => ({ name, changes: {}, result: true, comment: '' }),
});

export default defineStateModule({
  name: 'module',
  doc: 'Execution of Salt execution functions as states (module.run, module.wait, module.watch).',
  functions: {
    run,
    mod_watch: run,
    wait,
    // Salt's alias of wait
    watch: wait,
  },
});
