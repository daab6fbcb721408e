/**
 * Evaluates a parsed expression against a scope of variables, with Python's semantics and
 * nothing else: no host objects, no prototype access, no calls but the listed methods.
 */
import type { Expr } from './expr-parser.js';
import { callMethod, FILTERS, TESTS } from './filters.js';
import {
  compare,
  contains,
  defined,
  equal,
  getItem,
  str,
  TemplateError,
  truthy,
  typeName,
  Undefined,
} from './values.js';

/** Variables a template sees; lookups walk up to the parent scope. */
export class Scope {
  readonly #vars = new Map<string, unknown>();
  constructor(readonly parent?: Scope) {}

  get(name: string): unknown {
    if (this.#vars.has(name)) return this.#vars.get(name);
    return this.parent ? this.parent.get(name) : NOT_FOUND;
  }

  set(name: string, value: unknown): void {
    this.#vars.set(name, value);
  }
}

const NOT_FOUND = Symbol('not found');

/** Names Salt's templates often use that the reactor's sandbox deliberately does not give. */
const SANDBOXED = new Set(['salt', '__salt__', 'pillar', 'grains', 'opts', '__opts__', 'env', 'saltenv']);

function lookup(scope: Scope, name: string): unknown {
  const v = scope.get(name);
  if (v !== NOT_FOUND) return v;
  if (SANDBOXED.has(name))
    return new Undefined(`'${name}' is undefined: reactor templates see only 'tag' and 'data' (sandbox)`);
  return new Undefined(`'${name}' is undefined`);
}

function num(v: unknown, op: string, other: unknown): number {
  const x = defined(v);
  if (typeof x === 'number') return x;
  if (typeof x === 'boolean') return x ? 1 : 0;
  throw new TemplateError(
    `unsupported operand type(s) for ${op}: '${typeName(x)}' and '${typeName(defined(other))}'`,
  );
}

function arithmetic(op: string, a: unknown, b: unknown): unknown {
  const x = defined(a);
  const y = defined(b);
  if (op === '+') {
    if (typeof x === 'string' && typeof y === 'string') return x + y;
    if (Array.isArray(x) && Array.isArray(y)) return [...x, ...y];
    return num(x, op, y) + num(y, op, x);
  }
  if (op === '*') {
    if (typeof x === 'string' && typeof y === 'number') return x.repeat(Math.max(0, y));
    if (Array.isArray(x) && typeof y === 'number') {
      const out: unknown[] = [];
      for (let i = 0; i < y; i++) out.push(...x);
      return out;
    }
    return num(x, op, y) * num(y, op, x);
  }
  if (op === '%' && typeof x === 'string') throw new TemplateError("'%' string formatting is not supported");
  const l = num(x, op, y);
  const r = num(y, op, x);
  if ((op === '/' || op === '//' || op === '%') && r === 0) throw new TemplateError('division by zero');
  if (op === '-') return l - r;
  if (op === '/') return l / r;
  if (op === '//') return Math.floor(l / r);
  if (op === '%') return ((l % r) + r) % r;
  if (op === '**') return l ** r;
  throw new TemplateError(`unknown operator '${op}'`);
}

function binary(e: Extract<Expr, { k: 'bin' }>, scope: Scope): unknown {
  if (e.op === 'and') {
    const l = evaluate(e.left, scope);
    return truthy(l) ? evaluate(e.right, scope) : l;
  }
  if (e.op === 'or') {
    const l = evaluate(e.left, scope);
    return truthy(l) ? l : evaluate(e.right, scope);
  }
  const l = evaluate(e.left, scope);
  const r = evaluate(e.right, scope);
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
      return contains(r, l);
    case 'not in':
      return !contains(r, l);
    case '~':
      return str(l) + str(r);
    default:
      return arithmetic(e.op, l, r);
  }
}

function callArgs(
  e: { args: Expr[]; kwargs: Array<[string, Expr]> },
  scope: Scope,
): [unknown[], Record<string, unknown>] {
  const args = e.args.map((a) => evaluate(a, scope));
  const kwargs: Record<string, unknown> = {};
  for (const [k, v] of e.kwargs) kwargs[k] = evaluate(v, scope);
  return [args, kwargs];
}

export function evaluate(e: Expr, scope: Scope): unknown {
  switch (e.k) {
    case 'lit':
      return e.v;
    case 'name':
      return lookup(scope, e.name);
    case 'attr':
      return getItem(evaluate(e.obj, scope), e.name, 'attr');
    case 'item':
      return getItem(evaluate(e.obj, scope), defined(evaluate(e.index, scope)), 'item');
    case 'call': {
      const obj = evaluate(e.obj, scope);
      const [args, kwargs] = callArgs(e, scope);
      if (Object.keys(kwargs).length > 0)
        throw new TemplateError(`keyword arguments are not supported by the method '${e.name}'`);
      return callMethod(obj, e.name, args.map(defined));
    }
    case 'filter': {
      const fn = Object.hasOwn(FILTERS, e.name) ? FILTERS[e.name] : undefined;
      if (!fn) throw new TemplateError(`no filter named '${e.name}' in the reactor sandbox`);
      const [args, kwargs] = callArgs(e, scope);
      return fn(evaluate(e.value, scope), args.map(defined), kwargs);
    }
    case 'test': {
      const fn = Object.hasOwn(TESTS, e.name) ? TESTS[e.name] : undefined;
      if (!fn) throw new TemplateError(`no test named '${e.name}' in the reactor sandbox`);
      const [args] = callArgs(e, scope);
      const r = fn(evaluate(e.value, scope), args);
      return e.negate ? !r : r;
    }
    case 'not':
      return !truthy(evaluate(e.value, scope));
    case 'neg': {
      const v = defined(evaluate(e.value, scope));
      if (typeof v !== 'number') throw new TemplateError(`bad operand type for unary -: '${typeName(v)}'`);
      return -v;
    }
    case 'bin':
      return binary(e, scope);
    case 'cond':
      if (truthy(evaluate(e.test, scope))) return evaluate(e.yes, scope);
      return e.no ? evaluate(e.no, scope) : new Undefined('the conditional expression has no else');
    case 'list':
      return e.items.map((x) => defined(evaluate(x, scope)));
    case 'dict': {
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of e.items) {
        const key = defined(evaluate(k, scope));
        if (typeof key !== 'string' && typeof key !== 'number')
          throw new TemplateError(`unhashable mapping key of type '${typeName(key)}'`);
        out[String(key)] = defined(evaluate(v, scope));
      }
      return { ...out };
    }
  }
}
