/**
 * Evaluates a parsed Jinja expression against a scope, with Python's semantics (Jinja2's
 * `nodes.py` evaluation over Python data). The evaluator is a coroutine: a call whose result is
 * a promise (an async execution module behind `salt['mod.fn']`) yields it and resumes with the
 * value, so templates read async modules as plain values; the reactor's sandbox runs it
 * synchronously and allows no calls but the listed methods.
 */
import type { Expr } from './expr-parser.js';
import { callMethod, type Fn } from './filters.js';
import { hasPyMethod, methodArgs, percentFormat, pyMethod } from './methods.js';
import { isFloat, isInt, isNumber, numValue, pyFloat, sameKind } from './numbers.js';
import { SaltProxy } from './salt-proxy.js';
import {
  CALLABLE,
  compare,
  contains,
  defined,
  equal,
  type Gen,
  getItem,
  isMap,
  isPromise,
  iterate,
  JinjaFunction,
  Macro,
  setKeyValue,
  str,
  TemplateError,
  truthy,
  tuple,
  typeName,
  Undefined,
} from './values.js';

/** Variables a template sees; lookups walk up to the parent scope. */
export class Scope {
  readonly vars = new Map<string, unknown>();
  constructor(readonly parent?: Scope) {}

  get(name: string): unknown {
    if (this.vars.has(name)) return this.vars.get(name);
    return this.parent ? this.parent.get(name) : NOT_FOUND;
  }

  set(name: string, value: unknown): void {
    this.vars.set(name, value);
  }
}

export const NOT_FOUND = Symbol('not found');

/** What the evaluator needs from the template run: the filter and test tables, the sandbox flag. */
export interface Runtime {
  readonly sandbox: boolean;
  readonly filters: Readonly<Record<string, Fn>>;
  readonly tests: Readonly<Record<string, (value: unknown, args: unknown[]) => boolean>>;
  /** Counts one unit of work (a loop turn, a call) against the render's bounds. */
  tick(): void;
}

/** Names Salt's templates often use that the reactor's sandbox deliberately does not give. */
const SANDBOXED = new Set(['salt', '__salt__', 'pillar', 'grains', 'opts', '__opts__', 'env', 'saltenv']);

function lookup(scope: Scope, name: string, rt: Runtime): unknown {
  const v = scope.get(name);
  if (v !== NOT_FOUND) return v;
  if (rt.sandbox && SANDBOXED.has(name))
    return new Undefined(`'${name}' is undefined: reactor templates see only 'tag' and 'data' (sandbox)`);
  return new Undefined(`'${name}' is undefined`);
}

function num(v: unknown, op: string, other: unknown): number {
  const x = defined(v);
  if (isNumber(x) || typeof x === 'boolean') return numValue(x);
  throw new TemplateError(
    `unsupported operand type(s) for ${op}: '${typeName(x)}' and '${typeName(defined(other))}'`,
  );
}

/** Python's `a ** b`: an int for ints with a non-negative exponent, else a float. */
function power(x: unknown, y: unknown, l: number, r: number): unknown {
  if (l === 0 && r < 0) throw new TemplateError('0.0 cannot be raised to a negative power');
  return isFloat(x) || isFloat(y) || r < 0 ? pyFloat(l ** r) : l ** r;
}

/** CPython's ZeroDivisionError message for `op`. */
function zeroDivision(op: string, x: unknown, y: unknown): string {
  const float = isFloat(x) || isFloat(y);
  if (op === '/') return float ? 'float division by zero' : 'division by zero';
  if (op === '//') return float ? 'float floor division by zero' : 'integer division or modulo by zero';
  return float ? 'float modulo' : 'integer modulo by zero';
}

function arithmetic(op: string, a: unknown, b: unknown, rt: Runtime): unknown {
  const x = defined(a);
  const y = defined(b);
  if (op === '+') {
    if (typeof x === 'string' && typeof y === 'string') return x + y;
    if (Array.isArray(x) && Array.isArray(y)) return [...x, ...y];
    return sameKind(num(x, op, y) + num(y, op, x), x, y);
  }
  if (op === '*') {
    // Python repeats a str or list by an int on either side (a bool counts as 0 or 1)
    const [seq, times] = typeof y === 'string' || Array.isArray(y) ? [y, x] : [x, y];
    const n = typeof times === 'boolean' ? Number(times) : times;
    if (typeof seq === 'string' || Array.isArray(seq)) {
      if (!isInt(n))
        throw new TemplateError(`can't multiply sequence by non-int of type '${typeName(times)}'`);
      if (typeof seq === 'string') return seq.repeat(Math.max(0, n));
      const out: unknown[] = [];
      for (let i = 0; i < n; i++) out.push(...seq);
      return out;
    }
    return sameKind(num(x, op, y) * num(y, op, x), x, y);
  }
  if (op === '%' && typeof x === 'string') {
    if (rt.sandbox) throw new TemplateError("'%' string formatting is not supported");
    return percentFormat(x, y);
  }
  const l = num(x, op, y);
  const r = num(y, op, x);
  if ((op === '/' || op === '//' || op === '%') && r === 0) throw new TemplateError(zeroDivision(op, x, y));
  if (op === '-') return sameKind(l - r, x, y);
  if (op === '/') return pyFloat(l / r);
  if (op === '//') return sameKind(Math.floor(l / r), x, y);
  if (op === '%') return sameKind(((l % r) + r) % r, x, y);
  if (op === '**') return power(x, y, l, r);
  throw new TemplateError(`unknown operator '${op}'`);
}

function* binary(e: Extract<Expr, { k: 'bin' }>, scope: Scope, rt: Runtime): Gen<unknown> {
  if (e.op === 'and') {
    const l = yield* evaluate(e.left, scope, rt);
    return truthy(l) ? yield* evaluate(e.right, scope, rt) : l;
  }
  if (e.op === 'or') {
    const l = yield* evaluate(e.left, scope, rt);
    return truthy(l) ? l : yield* evaluate(e.right, scope, rt);
  }
  const l = yield* evaluate(e.left, scope, rt);
  const r = yield* evaluate(e.right, scope, rt);
  switch (e.op) {
    case '==':
      return equal(defined(l), defined(r));
    case '!=':
      return !equal(defined(l), defined(r));
    case '<':
      return compare(l, r, e.op) < 0;
    case '>':
      return compare(l, r, e.op) > 0;
    case '<=':
      return compare(l, r, e.op) <= 0;
    case '>=':
      return compare(l, r, e.op) >= 0;
    case 'in':
      return r instanceof SaltProxy ? r.has(str(l)) : contains(r, l);
    case 'not in':
      return !(r instanceof SaltProxy ? r.has(str(l)) : contains(r, l));
    case '~':
      return str(l) + str(r);
    default:
      return arithmetic(e.op, l, r, rt);
  }
}

/** Positional and keyword arguments of a call, `*args`/`**kwargs` spread in. */
export function* callArgs(
  e: { args: Expr[]; kwargs: Array<[string, Expr]>; star?: Expr; starstar?: Expr },
  scope: Scope,
  rt: Runtime,
): Gen<[unknown[], Record<string, unknown>]> {
  const args: unknown[] = [];
  for (const a of e.args) args.push(yield* evaluate(a, scope, rt));
  if (e.star) args.push(...iterate(yield* evaluate(e.star, scope, rt)));
  const kwargs: Record<string, unknown> = {};
  for (const [k, v] of e.kwargs) kwargs[k] = yield* evaluate(v, scope, rt);
  if (e.starstar) {
    const m = defined(yield* evaluate(e.starstar, scope, rt));
    if (!isMap(m)) throw new TemplateError(`argument after ** must be a mapping, not ${typeName(m)}`);
    Object.assign(kwargs, m);
  }
  return [args, kwargs];
}

/** Calls a function value: a macro, a template function, or a `salt` function. */
export function* callValue(
  fn: unknown,
  args: unknown[],
  kwargs: Record<string, unknown>,
  rt: Runtime,
  caller?: Macro,
): Gen<unknown> {
  rt.tick();
  let f = defined(fn);
  if (isMap(f) && CALLABLE in f) f = (f as { [CALLABLE]: unknown })[CALLABLE];
  if (f instanceof Macro) return yield* f.invoke(args, kwargs, caller);
  if (f instanceof JinjaFunction) {
    let r: unknown;
    try {
      r = f.impl(args.map(defined), kwargs);
      if (isPromise(r)) r = yield r;
    } catch (err) {
      if (err instanceof TemplateError) throw err;
      throw new TemplateError(`${f.name}(...) failed: ${(err as Error)?.message ?? String(err)}`);
    }
    return r;
  }
  throw new TemplateError(`'${typeName(f)}' object is not callable`);
}

function slice(obj: unknown, start: unknown, stop: unknown, step: unknown): unknown {
  const o = defined(obj);
  if (!Array.isArray(o) && typeof o !== 'string')
    throw new TemplateError(`'${typeName(o)}' object is not subscriptable`);
  const items: unknown[] = typeof o === 'string' ? [...o] : o;
  const len = items.length;
  const st = step === undefined || step === null ? 1 : Number(defined(step));
  if (st === 0) throw new TemplateError('slice step cannot be zero');
  const norm = (v: unknown, dflt: number) => {
    if (v === undefined || v === null) return dflt;
    let n = Number(defined(v));
    if (n < 0) n += len;
    return st > 0 ? Math.min(Math.max(n, 0), len) : Math.min(Math.max(n, -1), len - 1);
  };
  const a = norm(start, st > 0 ? 0 : len - 1);
  const b = norm(stop, st > 0 ? len : -1);
  const out: unknown[] = [];
  for (let i = a; st > 0 ? i < b : i > b; i += st) out.push(items[i]);
  return typeof o === 'string' ? out.join('') : out;
}

/** `obj.name` / `obj[key]`, with the `salt` proxy's dotted names. */
function item(obj: unknown, key: unknown, how: 'attr' | 'item'): unknown {
  if (obj instanceof SaltProxy) return obj.get(str(key));
  return getItem(obj, key, how);
}

export function* evaluate(e: Expr, scope: Scope, rt: Runtime): Gen<unknown> {
  switch (e.k) {
    case 'lit':
      return e.v;
    case 'name':
      return lookup(scope, e.name, rt);
    case 'attr':
      return item(yield* evaluate(e.obj, scope, rt), e.name, 'attr');
    case 'item':
      return item(yield* evaluate(e.obj, scope, rt), defined(yield* evaluate(e.index, scope, rt)), 'item');
    case 'slice': {
      const o = yield* evaluate(e.obj, scope, rt);
      const a = e.start ? yield* evaluate(e.start, scope, rt) : undefined;
      const b = e.stop ? yield* evaluate(e.stop, scope, rt) : undefined;
      const c = e.step ? yield* evaluate(e.step, scope, rt) : undefined;
      return slice(o, a, b, c);
    }
    case 'call': {
      const obj = yield* evaluate(e.obj, scope, rt);
      const [args, kwargs] = yield* callArgs(e, scope, rt);
      if (!rt.sandbox) {
        const o = defined(obj);
        // a function held under the name (salt.cmd.run, an imported template's macro) is called
        const held =
          o instanceof SaltProxy
            ? o.get(e.name)
            : isMap(o) && Object.hasOwn(o, e.name)
              ? o[e.name]
              : undefined;
        if (held instanceof Macro || held instanceof JinjaFunction)
          return yield* callValue(held, args, kwargs, rt);
        if (held instanceof Undefined) defined(held);
        return pyMethod(o, e.name, methodArgs(e.name, args), kwargs);
      }
      if (Object.keys(kwargs).length > 0)
        throw new TemplateError(`keyword arguments are not supported by the method '${e.name}'`);
      return callMethod(obj, e.name, args.map(defined));
    }
    case 'fcall': {
      if (e.fn.k === 'item' && !rt.sandbox) {
        // Jinja's subscript falls back to the attribute: `d['get'](k)` on a dict without a
        // `get` key is `d.get(k)` (prometheus-formula's service names)
        const o = yield* evaluate(e.fn.obj, scope, rt);
        const key = defined(yield* evaluate(e.fn.index, scope, rt));
        const got = item(o, key, 'item');
        const [args, kwargs] = yield* callArgs(e, scope, rt);
        if (got instanceof Undefined && typeof key === 'string' && hasPyMethod(defined(o), key))
          return pyMethod(defined(o), key, methodArgs(key, args), kwargs);
        return yield* callValue(got, args, kwargs, rt);
      }
      const fn = yield* evaluate(e.fn, scope, rt);
      const [args, kwargs] = yield* callArgs(e, scope, rt);
      return yield* callValue(fn, args, kwargs, rt);
    }
    case 'filter': {
      const fn = Object.hasOwn(rt.filters, e.name) ? rt.filters[e.name] : undefined;
      if (!fn)
        throw new TemplateError(
          rt.sandbox ? `no filter named '${e.name}' in the reactor sandbox` : `no filter named '${e.name}'`,
        );
      const value = yield* evaluate(e.value, scope, rt);
      const [args, kwargs] = yield* callArgs(e, scope, rt);
      let r = fn(value, args.map(defined), kwargs);
      if (isPromise(r)) r = yield r;
      return r;
    }
    case 'test': {
      const fn = Object.hasOwn(rt.tests, e.name) ? rt.tests[e.name] : undefined;
      if (!fn)
        throw new TemplateError(
          rt.sandbox ? `no test named '${e.name}' in the reactor sandbox` : `no test named '${e.name}'`,
        );
      const [args] = yield* callArgs(e, scope, rt);
      const r = fn(yield* evaluate(e.value, scope, rt), args);
      return e.negate ? !r : r;
    }
    case 'not':
      return !truthy(yield* evaluate(e.value, scope, rt));
    case 'neg': {
      const v = defined(yield* evaluate(e.value, scope, rt));
      if (!isNumber(v)) throw new TemplateError(`bad operand type for unary -: '${typeName(v)}'`);
      return sameKind(-numValue(v), v);
    }
    case 'bin':
      return yield* binary(e, scope, rt);
    case 'cond':
      if (truthy(yield* evaluate(e.test, scope, rt))) return yield* evaluate(e.yes, scope, rt);
      return e.no
        ? yield* evaluate(e.no, scope, rt)
        : new Undefined('the inline if-expression evaluated to false and no else section was defined.', true);
    case 'list': {
      const out: unknown[] = [];
      for (const x of e.items) out.push(yield* evaluate(x, scope, rt));
      return e.tuple ? tuple(out) : out;
    }
    case 'dict': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of e.items) {
        const key = defined(yield* evaluate(k, scope, rt));
        if (typeof key !== 'string' && !isNumber(key) && typeof key !== 'boolean' && key !== null)
          throw new TemplateError(`unhashable mapping key of type '${typeName(key)}'`);
        out[str(key)] = yield* evaluate(v, scope, rt);
        if (typeof key !== 'string') setKeyValue(out, str(key), key);
      }
      return out;
    }
  }
}
