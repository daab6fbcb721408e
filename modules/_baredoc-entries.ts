/**
 * The entries of Salt's `baredoc` module (`salt/modules/baredoc.py`), built from a loader's
 * function index instead of Salt's reading of module sources with `ast`: a function's
 * arguments as `{name: default}`, the file (module) a name selects, and the docs.
 */
import { type FunctionIndex, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pythonError, pyValueClass } from './_py-exception.js';
import { argspecOf, type SignatureSpec } from './_sys-report.js';

/**
 * Whether Salt's reading of a default keeps it: only literals (None, True/False, a string, a
 * number) are kept; a list, a dict or a negative number (`-1` is an expression in Python's
 * syntax tree) is left out, which shifts the kept ones onto later arguments as Salt's do.
 */
function literal(v: unknown): boolean {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return true;
  return typeof v === 'number' && !Object.is(v, -0) && v >= 0;
}

/**
 * Salt's `_get_args`: each argument with its default (null for none), the kept defaults
 * matched to the arguments from the end, then `args`/`kwargs` when the function takes
 * `*args`/`**kwargs` (Salt shows their Python names, which are these for nearly all functions).
 */
export function baredocArgs(spec: SignatureSpec): Record<string, unknown> {
  const { args, defaults, varargs, kwargs } = argspecOf(spec);
  const names = args ?? [];
  const kept = (defaults ?? []).filter(literal);
  const out: Record<string, unknown> = {};
  const offset = names.length - kept.length;
  names.forEach((name, i) => {
    out[name] = i >= offset ? kept[i - offset] : null;
  });
  if (varargs) out.args = 'args';
  if (kwargs) out.kwargs = 'kwargs';
  return out;
}

/** A loader's function index with the file each module came from. */
export type BaredocIndex = Pick<FunctionIndex, 'list' | 'modules' | 'get' | 'moduleDoc' | 'provider'>;

/**
 * Salt's `_get_files`: the modules a name selects, by the file they come from (a name is a file
 * name, as in Salt: the module from `gnome.ts` for `gnome`), or every module when no name is
 * given. A dotted name is refused unless docs are asked for, which take its first part.
 */
export async function selectByFile(index: BaredocIndex, name: unknown, forDocs: boolean): Promise<string[]> {
  if (!name) return index.modules();
  if (typeof name !== 'string')
    throw new SALT_ERR_INVOCATION(`argument of type '${pyValueClass(name)}' is not iterable`);
  let stem = name;
  if (name.includes('.')) {
    if (!forDocs) throw new SALT_ERR_EXEC_COMMAND('Function name given');
    stem = name.split('.')[0] ?? '';
  }
  for (const mod of await index.modules()) if ((await index.provider(mod)) === stem) return [mod];
  return [];
}

/** Where tsalt's own modules of a kind are, beside this file: execution modules, state modules. */
export type BaredocKind = './' | '../states/';

/**
 * The names of the functions a builtin module file defines, in the order it defines them; empty
 * when `stem` is no builtin module of `kind` (a module from `extension_modules`).
 */
async function definitionOrder(kind: BaredocKind, stem: string): Promise<string[]> {
  if (!/^[A-Za-z0-9_]+$/.test(stem)) return [];
  try {
    const file = (await import(new URL(`${kind}${stem}.js`, import.meta.url).href)) as {
      default?: { functions?: Record<string, unknown> };
    };
    return Object.keys(file.default?.functions ?? {});
  } catch {
    return [];
  }
}

/**
 * Salt lists a module's functions in the order its source defines them, where the loader's
 * index lists them sorted: the order of the module's own file (tsalt's modules define their
 * functions in Salt's order), the functions it does not name after them, sorted.
 */
async function inSourceOrder(index: BaredocIndex, kind: BaredocKind, mod: string): Promise<string[]> {
  const sorted = await index.list(mod);
  const stem = await index.provider(mod);
  const order = stem ? await definitionOrder(kind, stem) : [];
  const rank = (fun: string): number => {
    const i = order.indexOf(fun.slice(mod.length + 1));
    return i < 0 ? order.length : i;
  };
  return sorted
    .map((fun, i) => ({ fun, i }))
    .sort((a, b) => rank(a.fun) - rank(b.fun) || a.i - b.i)
    .map((e) => e.fun);
}

/** Salt's `_parse_module_functions`: a module's functions as names or as `{fn: args}` entries. */
export async function moduleFunctions(
  index: BaredocIndex,
  kind: BaredocKind,
  mod: string,
  namesOnly: boolean,
): Promise<Array<string | Record<string, Record<string, unknown>>>> {
  const out: Array<string | Record<string, Record<string, unknown>>> = [];
  for (const fun of await inSourceOrder(index, kind, mod)) {
    const fn = fun.slice(mod.length + 1);
    if (namesOnly) out.push(fn);
    else {
      const spec = await index.get(fun);
      if (spec) out.push({ [fn]: baredocArgs(spec) });
    }
  }
  return out;
}

/** Sorted by key, as Salt's `OrderedDict(sorted(ret.items()))`. */
export function sortedByKey<T>(ret: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(ret).sort()) out[k] = ret[k] as T;
  return out;
}

/** Salt's `list_modules`/`list_states`. */
export async function listFunctions(
  index: BaredocIndex,
  kind: BaredocKind,
  name: unknown,
  namesOnly: unknown,
): Promise<Record<string, unknown[]>> {
  const ret: Record<string, unknown[]> = {};
  for (const mod of await selectByFile(index, name, false))
    ret[mod] = await moduleFunctions(index, kind, mod, Boolean(namesOnly));
  return sortedByKey(ret);
}

/**
 * Salt's `_parse_module_docs`: the module's doc under its name and each function's under
 * `mod.fn`; for a dotted name only that function's.
 */
async function moduleDocs(
  index: BaredocIndex,
  mod: string,
  name?: string,
): Promise<Record<string, string | null>> {
  const ret: Record<string, string | null> = {};
  const fnOnly = name?.includes('.') ? name.split('.')[1] : undefined;
  if (fnOnly === undefined) ret[mod] = (await index.moduleDoc(mod)) ?? null;
  for (const fun of await index.list(mod)) {
    const fn = fun.slice(mod.length + 1);
    if (fnOnly !== undefined && fn !== fnOnly) continue;
    ret[fun] = (await index.get(fun))?.doc ?? null;
  }
  return ret;
}

/** Salt's `module_docs`/`state_docs`: a name that selects no file is Salt's IndexError. */
export async function docsOf(
  index: BaredocIndex,
  names: readonly unknown[],
): Promise<Record<string, string | null>> {
  const ret: Record<string, string | null> = {};
  if (names.length === 0) {
    for (const mod of await index.modules()) Object.assign(ret, await moduleDocs(index, mod));
    return sortedByKey(ret);
  }
  for (const name of names) {
    const [mod] = await selectByFile(index, name, true);
    if (mod === undefined) throw pythonError('IndexError', 'list index out of range');
    Object.assign(ret, await moduleDocs(index, mod, String(name)));
  }
  return sortedByKey(ret);
}
