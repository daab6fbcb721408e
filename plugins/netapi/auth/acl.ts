/**
 * Salt's eauth ACL grammar (salt/utils/minions.py `CkMinions`): who may run what, where, with
 * which arguments. An auth list is a list of entries:
 * - `'test.*'`: a function regex (Python `re.match`: anchored at the start only), any minion;
 * - `{'web*': ['test.*', 'cmd.run']}`: functions allowed on the minions a compound target matches;
 * - `{'cmd.run': {'args': ['ls.*'], 'kwargs': {'cwd': '/tmp'}}}` inside a target's list:
 *   function plus argument regexes (`null` means any value);
 * - `'@runner'`, `'@wheel'`, `'@jobs'` (a runner/wheel module name): every function of that
 *   client or module; `{'@runner': ['manage.*']}` / `{'@jobs': ['lookup_jid']}`: only those.
 * Users are matched by name, glob or regex, groups by `name%`, `*` as a fallback.
 *
 * Unlike Salt, an error anywhere (a bad regex, a target that cannot be resolved, a malformed
 * entry) counts as "not allowed", and a compound (list) `fun` needs every function allowed.
 * Also unlike Salt, arguments are checked as the function will receive them, not as sent:
 * `k=v` words and `__kwarg__` maps anywhere in `arg` are keywords (the minion's
 * `splitArgs`, the master's `normalizeArgs` for runners and wheel), so `["ls=1", "id -u"]`
 * is checked with `id -u` as the first positional, which is what `cmd.run` would run.
 */

import { normalizeArgs } from '../../../kernel/services.js';
import { globToRegExp, splitArgs } from '../../../kernel/util.js';

export type AuthList = readonly unknown[];

/** Resolves a target to the minion ids it matches (throws when it cannot). */
export type TargetResolver = (tgt: unknown, tgtType: string) => Promise<ReadonlySet<string>>;

const regexCache = new Map<string, RegExp | null>();

/** Translates the Python-only regex syntax that JavaScript lacks (`(?P<n>`, `(?P=n)`, `\A`, `\Z`). */
function pyToJs(source: string): string {
  return source
    .replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$');
}

function compile(source: string, anchorEnd: boolean): RegExp | null {
  const key = `${anchorEnd ? 'F' : 'M'}${source}`;
  const hit = regexCache.get(key);
  if (hit !== undefined) return hit;
  let re: RegExp | null;
  try {
    re = new RegExp(`^(?:${pyToJs(source)})${anchorEnd ? '$' : ''}`, 'u');
  } catch {
    try {
      re = new RegExp(`^(?:${pyToJs(source)})${anchorEnd ? '$' : ''}`);
    } catch {
      re = null;
    }
  }
  if (regexCache.size > 5000) regexCache.clear();
  regexCache.set(key, re);
  return re;
}

/**
 * Salt's `match_check`: `re.match(regex, fun)` for one function, or for every function of a
 * list. An invalid regex or an empty list matches nothing.
 */
export function matchCheck(regex: unknown, fun: string | readonly string[]): boolean {
  if (typeof regex !== 'string') return false;
  const funs = typeof fun === 'string' ? [fun] : fun;
  if (funs.length === 0) return false;
  const re = compile(regex, false);
  if (!re) return false;
  return funs.every((f) => re.test(f));
}

/** Salt's `expr_match`: equal, an fnmatch glob, or a regex matching the whole line. */
export function exprMatch(expr: string, line: string): boolean {
  if (expr === line) return true;
  if (globToRegExp(expr).test(line)) return true;
  const re = compile(expr, true);
  return re ? re.test(line) : false;
}

function isDict(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [v];
}

/**
 * Salt's `fill_auth_list`: the entries of one eauth back end's mapping that apply to `name`
 * (matched by name, glob or regex) and to its groups (`group%`). `*` applies when nothing
 * else named the user, or always with `permissive_acl`. Keys starting with `^` are back-end
 * options (`^filename`), never users.
 */
export function fillAuthList(
  provider: Readonly<Record<string, unknown>>,
  name: string,
  groups: readonly string[],
  permissive = false,
): unknown[] {
  const out: unknown[] = [];
  let nameMatched = false;
  for (const [match, entries] of Object.entries(provider)) {
    if (match.startsWith('^')) continue;
    if (match === '*' && !permissive) continue;
    if (match.endsWith('%')) {
      if (groups.includes(match.slice(0, -1))) out.push(...asList(entries));
    } else if (exprMatch(match, name)) {
      nameMatched = true;
      out.push(...asList(entries));
    }
  }
  if (!permissive && !nameMatched && '*' in provider) out.push(...asList(provider['*']));
  return out;
}

/** Whether `name` (or one of its groups) is named at all in the back end's mapping. */
export function userListed(
  provider: Readonly<Record<string, unknown>>,
  name: string,
  groups: readonly string[],
): boolean {
  for (const match of Object.keys(provider)) {
    if (match.startsWith('^')) continue;
    if (match === '*') return true;
    if (match.endsWith('%')) {
      if (groups.includes(match.slice(0, -1))) return true;
    } else if (exprMatch(match, name)) return true;
  }
  return false;
}

/** Salt's `__args_check`: `{args: [...], kwargs: {...}}` (or a list of them) against the call. */
export function argsCheck(
  valid: unknown,
  args: readonly unknown[] | undefined,
  kwargs: Readonly<Record<string, unknown>> | undefined,
): boolean {
  for (const cond of asList(valid)) {
    if (!isDict(cond)) continue;
    const condArgs = cond.args === undefined ? [] : cond.args;
    if (!Array.isArray(condArgs)) continue;
    let good = true;
    for (let i = 0; i < condArgs.length && good; i++) {
      if (!args || args.length <= i) good = false;
      else if (condArgs[i] === null) continue;
      else if (!matchCheck(condArgs[i], pyStr(args[i]))) good = false;
    }
    if (!good) continue;
    const condKwargs = cond.kwargs === undefined ? {} : cond.kwargs;
    if (!isDict(condKwargs)) continue;
    for (const [k, v] of Object.entries(condKwargs)) {
      if (!kwargs || !(k in kwargs)) {
        good = false;
        break;
      }
      if (v === null) continue;
      if (!matchCheck(v, pyStr(kwargs[k]))) {
        good = false;
        break;
      }
    }
    if (good) return true;
  }
  return false;
}

/** `str(value)` as Python prints it for the scalars an argument holds. */
function pyStr(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

/** Salt's `__fun_check`: a function regex, or `{regex: argsSpec}`, or a list of these. */
export function funCheck(
  valid: unknown,
  fun: string,
  args?: readonly unknown[],
  kwargs?: Readonly<Record<string, unknown>>,
): boolean {
  for (const cond of asList(valid)) {
    if (typeof cond === 'string') {
      if (matchCheck(cond, fun)) return true;
    } else if (isDict(cond)) {
      const keys = Object.keys(cond);
      if (keys.length !== 1) continue;
      const fname = keys[0] as string;
      if (matchCheck(fname, fun) && argsCheck(cond[fname], args, kwargs)) return true;
    }
  }
  return false;
}

/**
 * Salt's `auth_check`: may `funs` (one function or a compound list, with `args` per function)
 * run on target `tgt`? `resolve` turns targets into minion sets; a target-restricted entry
 * allows the call when every targeted minion is among those its key matches (as a compound
 * target). Any error denies.
 */
export async function authCheck(
  authList: AuthList,
  funs: string | readonly string[],
  args: readonly unknown[] | readonly (readonly unknown[])[],
  tgt: unknown,
  tgtType: string,
  resolve: TargetResolver,
): Promise<boolean> {
  const funList = typeof funs === 'string' ? [funs] : [...funs];
  const argLists = (typeof funs === 'string' ? [args] : args) as readonly unknown[];
  if (funList.length === 0) return false;
  let targeted: ReadonlySet<string> | undefined;
  const allowedSets = new Map<string, ReadonlySet<string> | null>();
  try {
    for (let i = 0; i < funList.length; i++) {
      const fun = funList[i];
      if (typeof fun !== 'string') return false;
      const rawArgs = argLists[i];
      // the minion's own parse (execute-job: a non-list argument list is no arguments)
      const call = splitArgs(Array.isArray(rawArgs) ? rawArgs : []);
      let ok = false;
      for (const entry of authList) {
        if (typeof entry === 'string') {
          if (entry.startsWith('@')) continue;
          if (matchCheck(entry, fun)) {
            ok = true;
            break;
          }
        } else if (isDict(entry)) {
          const keys = Object.keys(entry);
          if (keys.length !== 1) continue;
          const valid = keys[0] as string;
          if (valid.startsWith('@')) continue;
          targeted ??= await resolve(tgt, tgtType);
          let allowed = allowedSets.get(valid);
          if (allowed === undefined) {
            allowed = await resolve(valid, 'compound').catch(() => null);
            allowedSets.set(valid, allowed);
          }
          if (!allowed) continue;
          const within = [...targeted].every((id) => allowed.has(id));
          if (within && funCheck(entry[valid], fun, call.args, call.kwargs)) {
            ok = true;
            break;
          }
        }
      }
      if (!ok) return false;
    }
    return true;
  } catch {
    return false;
  }
}

export type SpecForm = 'runner' | 'wheel';

/** Salt's answer to a runner/wheel `fun` that is not `module.function`. */
export const CHECK_SYNTAX_ERROR = {
  error: {
    name: 'SaltInvocationError',
    message: 'A command invocation error occurred: Check syntax.',
  },
} as const;

/**
 * Salt's `spec_check` (runner_check, wheel_check): `@runner`/`@runners`/`@wheel` allow every
 * function of that client, `@<module>` every function of that module (`@jobs`), and the dict
 * forms restrict to matching function names and arguments. Returns Salt's syntax error for a
 * `fun` that is not `module.function`.
 */
export function specCheck(
  authList: AuthList,
  fun: string,
  call: { arg?: readonly unknown[]; kwarg?: Readonly<Record<string, unknown>> },
  form: SpecForm,
): boolean | typeof CHECK_SYNTAX_ERROR {
  if (authList.length === 0) return false;
  const comps = fun.split('.');
  if (comps.length !== 2) return CHECK_SYNTAX_ERROR;
  const [modName, funName] = comps as [string, string];
  // the master's own parse of a runner/wheel call's `arg` and `kwarg`
  const { args, kwargs } = normalizeArgs(call.arg, call.kwarg);
  for (const entry of authList) {
    if (typeof entry === 'string') {
      if (!entry.startsWith('@')) continue;
      const rest = entry.slice(1);
      if (rest === modName || rest === form || entry === `@${form}s`) return true;
    } else if (isDict(entry)) {
      const keys = Object.keys(entry);
      if (keys.length !== 1) continue;
      const valid = keys[0] as string;
      if (!valid.startsWith('@')) continue;
      const rest = valid.slice(1);
      if (rest === modName && funCheck(entry[valid], funName, args, kwargs)) return true;
      if ((rest === form || valid === `@${form}s`) && funCheck(entry[valid], fun, args, kwargs)) return true;
    }
  }
  return false;
}

/**
 * Salt's `login` answer `perms`: the user's entries without duplicates, sorted when they are
 * all strings (as Python's `sorted(set(perms))` manages), else in their order.
 */
export function permsForLogin(authList: AuthList): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const e of authList) {
    const k = JSON.stringify(e);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(e);
  }
  if (out.every((e) => typeof e === 'string')) {
    return (out as string[]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
  return out;
}
