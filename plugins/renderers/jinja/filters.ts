/**
 * The core filters (`{{ x | name(args) }}`), tests (`x is name`) and methods (`x.name(args)`):
 * the set the reactor's sandbox allows, each a plain function over data (nothing reaches the
 * host). Salt's templates get these plus salt-filters.ts and the methods in methods.ts.
 */

import { stringify } from 'yaml';
import { pySplit, startsOrEnds, strip } from './methods.js';
import { isNumber, numStr, numValue, pyFloat, yamlFloats } from './numbers.js';
import { defined, isMap, iterate, str, TemplateError, truthy, typeName, Undefined } from './values.js';

export type Fn = (value: unknown, args: unknown[], kwargs: Record<string, unknown>) => unknown;

/** Argument `i` (or keyword `name`), else `def`. */
export function arg(
  args: unknown[],
  kwargs: Record<string, unknown>,
  i: number,
  name: string,
  def: unknown,
): unknown {
  if (args.length > i) return args[i];
  return Object.hasOwn(kwargs, name) ? kwargs[name] : def;
}

/** Python's `json.dumps`: `", "` and `": "` separators, non-ASCII escaped. */
export function pyJson(value: unknown, sortKeys = false, ascii = true): string {
  const v = defined(value);
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (isNumber(v)) {
    const n = numValue(v);
    if (Number.isNaN(n)) return 'NaN';
    if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
    return numStr(v);
  }
  if (typeof v === 'string' && !ascii) return JSON.stringify(v);
  if (typeof v === 'string')
    return JSON.stringify(v).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  if (Array.isArray(v)) return `[${v.map((x) => pyJson(x, sortKeys, ascii)).join(', ')}]`;
  if (isMap(v)) {
    const keys = Object.keys(v);
    if (sortKeys) keys.sort();
    return `{${keys.map((k) => `${pyJson(k, false, ascii)}: ${pyJson(v[k], sortKeys, ascii)}`).join(', ')}}`;
  }
  throw new TemplateError(`Object of type ${typeName(v)} is not JSON serializable`);
}

/** `json.dumps(value, indent=n)` (Python's layout; no indent is {@link pyJson}'s one line). */
export function pyJsonIndent(
  value: unknown,
  indent: unknown,
  o: { sortKeys?: boolean; ascii?: boolean } = {},
  depth = 0,
): string {
  const { sortKeys = false, ascii = true } = o;
  if (indent === null || indent === undefined) return pyJson(value, sortKeys, ascii);
  const pad = typeof indent === 'string' ? indent : ' '.repeat(Number(indent));
  const v = defined(value);
  const inner = `\n${pad.repeat(depth + 1)}`;
  const outer = `\n${pad.repeat(depth)}`;
  if (Array.isArray(v))
    return v.length
      ? `[${inner}${v.map((x) => pyJsonIndent(x, indent, o, depth + 1)).join(`,${inner}`)}${outer}]`
      : '[]';
  if (isMap(v)) {
    const keys = Object.keys(v);
    if (sortKeys) keys.sort();
    return keys.length
      ? `{${inner}${keys.map((k) => `${pyJson(k, false, ascii)}: ${pyJsonIndent(v[k], indent, o, depth + 1)}`).join(`,${inner}`)}${outer}}`
      : '{}';
  }
  return pyJson(v, sortKeys, ascii);
}

export function toInt(value: unknown, def: unknown): unknown {
  if (isNumber(value)) return Math.trunc(numValue(value));
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && /^\s*[-+]?\d+(?:\.\d*)?\s*$/.test(value)) return Math.trunc(Number(value));
  return def;
}

export function lengthOf(value: unknown): number {
  const v = defined(value);
  if (typeof v === 'string' || Array.isArray(v)) return v.length;
  if (isMap(v)) return Object.keys(v).length;
  throw new TemplateError(`object of type '${typeName(v)}' has no len()`);
}

export const FILTERS: Record<string, Fn> = {
  default(value, args, kwargs) {
    const boolean = arg(args, kwargs, 1, 'boolean', false);
    if (value instanceof Undefined || (boolean && !truthy(value)))
      return arg(args, kwargs, 0, 'default_value', '');
    return value;
  },
  json: (value, args, kwargs) => pyJson(value, Boolean(arg(args, kwargs, 0, 'sort_keys', false))),
  tojson: (value) => pyJson(value, true),
  yaml(value, args, kwargs) {
    const flow = arg(args, kwargs, 0, 'flow_style', true);
    const text = stringify(yamlFloats(defined(value)), {
      collectionStyle: flow === false ? 'block' : 'flow',
      lineWidth: 0,
    });
    return text.replace(/\n$/, '');
  },
  lower: (value) => str(value).toLowerCase(),
  upper: (value) => str(value).toUpperCase(),
  trim: (value) => str(value).trim(),
  string: (value) => str(value),
  replace(value, args, kwargs) {
    const s = str(value);
    const from = str(arg(args, kwargs, 0, 'old', ''));
    const to = str(arg(args, kwargs, 1, 'new', ''));
    const count = arg(args, kwargs, 2, 'count', null);
    if (typeof count !== 'number') return s.split(from).join(to);
    let out = s;
    let pos = 0;
    for (let n = 0; n < count; n++) {
      const at = out.indexOf(from, pos);
      if (at < 0) break;
      out = out.slice(0, at) + to + out.slice(at + from.length);
      pos = at + to.length;
    }
    return out;
  },
  join(value, args, kwargs) {
    const sep = str(arg(args, kwargs, 0, 'd', ''));
    const attribute = arg(args, kwargs, 1, 'attribute', null);
    const items = iterate(value).map((x) =>
      typeof attribute === 'string' && isMap(x)
        ? defined(x[attribute] ?? new Undefined(`no ${attribute}`))
        : x,
    );
    return items.map((x) => str(x)).join(sep);
  },
  length: (value) => lengthOf(value),
  count: (value) => lengthOf(value),
  first: (value) => iterate(value)[0] ?? new Undefined('first of an empty sequence'),
  last: (value) => iterate(value).at(-1) ?? new Undefined('last of an empty sequence'),
  list: (value) => [...iterate(value)],
  int: (value, args, kwargs) => toInt(defined(value), arg(args, kwargs, 0, 'default', 0)),
  float(value, args, kwargs) {
    const v = defined(value);
    const n =
      isNumber(v) || typeof v === 'boolean'
        ? numValue(v)
        : typeof v === 'string' && v.trim() !== ''
          ? Number(v)
          : Number.NaN;
    return Number.isNaN(n) ? arg(args, kwargs, 0, 'default', pyFloat(0)) : pyFloat(n);
  },
};
FILTERS.d = FILTERS.default as Fn;

export const TESTS: Record<string, (value: unknown, args: unknown[]) => boolean> = {
  defined: (v) => !(v instanceof Undefined),
  undefined: (v) => v instanceof Undefined,
  none: (v) => v === null,
  string: (v) => typeof v === 'string',
  number: (v) => isNumber(v),
  boolean: (v) => typeof v === 'boolean',
  mapping: (v) => isMap(v),
  sequence: (v) => Array.isArray(v) || typeof v === 'string' || isMap(v),
  iterable: (v) => Array.isArray(v) || typeof v === 'string' || isMap(v),
  true: (v) => v === true,
  false: (v) => v === false,
  even: (v) => isNumber(v) && numValue(v) % 2 === 0,
  odd: (v) => isNumber(v) && Math.abs(numValue(v) % 2) === 1,
};

const STRING_METHODS: Record<string, (s: string, a: unknown[]) => unknown> = {
  startswith: (s, a) => startsOrEnds(s, a[0], false),
  endswith: (s, a) => startsOrEnds(s, a[0], true),
  split: (s, a) => pySplit(s, a[0], a[1]),
  lower: (s) => s.toLowerCase(),
  upper: (s) => s.toUpperCase(),
  strip: (s, a) => strip(s, a[0], 'both'),
  lstrip: (s, a) => strip(s, a[0], 'left'),
  rstrip: (s, a) => strip(s, a[0], 'right'),
  replace: (s, a) => s.split(str(a[0])).join(str(a[1])),
  join: (s, a) =>
    iterate(a[0])
      .map((x) => str(x))
      .join(s),
};

const MAP_METHODS: Record<string, (m: Record<string, unknown>, a: unknown[]) => unknown> = {
  get: (m, a) => {
    const key = a[0];
    return typeof key === 'string' && Object.hasOwn(m, key) ? m[key] : (a[1] ?? null);
  },
  items: (m) => Object.entries(m),
  keys: (m) => Object.keys(m),
  values: (m) => Object.values(m),
};

/** Calls a method by name; only the ones listed above exist (the reactor's sandbox). */
export function callMethod(obj: unknown, name: string, args: unknown[]): unknown {
  const o = defined(obj);
  // own keys only: `constructor`, `__proto__` and the like are never methods here
  const fn =
    typeof o === 'string' && Object.hasOwn(STRING_METHODS, name)
      ? STRING_METHODS[name]?.bind(null, o)
      : isMap(o) && Object.hasOwn(MAP_METHODS, name)
        ? MAP_METHODS[name]?.bind(null, o)
        : undefined;
  if (!fn) throw new TemplateError(`'${typeName(o)} object' has no method '${name}' in the reactor sandbox`);
  return fn(args);
}
