/**
 * The Python `str`, `dict` and `list` methods Salt's Jinja users write (`.items()`, `.get()`,
 * `.update()`, `.split()`, `.startswith()`, `.format()`, `.join()`, `.append()`, ...), over the
 * plain data templates hold. Own methods only: no prototype, no host object is reachable.
 */
import { isOrdered, markOrdered } from '../../../modules/_ordered.js';
import { isNumber, numValue } from './numbers.js';
import {
  compare,
  defined,
  equal,
  isMap,
  iterate,
  keyValue,
  mapEntries,
  mapKeys,
  repr,
  setKeyValue,
  str,
  TemplateError,
  tuple,
  typeName,
} from './values.js';

type Method<T> = (self: T, a: unknown[], kw: Record<string, unknown>) => unknown;

export function startsOrEnds(s: string, what: unknown, end: boolean): boolean {
  const options = Array.isArray(what) ? what : [what];
  return options.some((o) => (end ? s.endsWith(str(o)) : s.startsWith(str(o))));
}

export function pySplit(s: string, sep: unknown, maxsplit: unknown, right = false): string[] {
  const max = typeof maxsplit === 'number' && maxsplit >= 0 ? maxsplit : Number.POSITIVE_INFINITY;
  if (sep === null || sep === undefined) {
    const parts = s.trim().split(/\s+/).filter(Boolean);
    if (parts.length <= max + 1) return parts;
    return right
      ? [parts.slice(0, parts.length - max).join(' '), ...parts.slice(parts.length - max)]
      : [...parts.slice(0, max), parts.slice(max).join(' ')];
  }
  const d = str(sep);
  if (d === '') throw new TemplateError('empty separator');
  const parts = s.split(d);
  if (parts.length <= max + 1) return parts;
  return right
    ? [parts.slice(0, parts.length - max).join(d), ...parts.slice(parts.length - max)]
    : [...parts.slice(0, max), parts.slice(max).join(d)];
}

export function strip(s: string, chars: unknown, side: 'both' | 'left' | 'right'): string {
  const set = chars === null || chars === undefined ? null : new Set(str(chars));
  const keep = (c: string) => (set ? !set.has(c) : !/\s/.test(c));
  let a = 0;
  let b = s.length;
  if (side !== 'right') while (a < b && !keep(s[a] as string)) a++;
  if (side !== 'left') while (b > a && !keep(s[b - 1] as string)) b--;
  return s.slice(a, b);
}

/** `str.format`: `{}`, `{0}`, `{name}`, `{name.attr}`, `{0[key]}` and simple `:>10`/`:.2f` specs. */
function pyFormat(fmt: string, args: unknown[], kwargs: Record<string, unknown>): string {
  let auto = 0;
  return fmt.replace(
    /\{\{|\}\}|\{([^{}:!]*)(?:!([rs]))?(?::([^{}]*))?\}/g,
    (m, field: string, conv, spec) => {
      if (m === '{{') return '{';
      if (m === '}}') return '}';
      const [head = '', ...rest] = field.split(/(?=[.[])/);
      let v: unknown = head === '' ? args[auto++] : /^\d+$/.test(head) ? args[Number(head)] : kwargs[head];
      for (const part of rest) {
        const key = part.startsWith('.') ? part.slice(1) : part.slice(1, -1);
        v = Array.isArray(v) && /^\d+$/.test(key) ? v[Number(key)] : isMap(v) ? v[key] : undefined;
      }
      if (v === undefined) throw new TemplateError(`format: no value for field '{${field}}'`);
      let out = conv === 'r' ? repr(v) : str(v);
      if (spec) {
        const sm = /^(.?[<>^])?(\d+)?(?:\.(\d+))?([fdsx%])?$/.exec(spec);
        if (sm) {
          const [, align, width, prec, type] = sm;
          if (type === 'f' || (prec && isNumber(v))) out = Number(v).toFixed(Number(prec ?? 6));
          else if (type === 'x') out = Number(v).toString(16);
          else if (type === '%') out = `${(Number(v) * 100).toFixed(Number(prec ?? 6))}%`;
          const w = Number(width ?? 0);
          const fill = align && align.length === 2 ? align[0] : ' ';
          const dir = align ? align.at(-1) : isNumber(v) ? '>' : '<';
          if (out.length < w) {
            const pad = w - out.length;
            if (dir === '>') out = (fill as string).repeat(pad) + out;
            else if (dir === '^')
              out =
                (fill as string).repeat(Math.floor(pad / 2)) +
                out +
                (fill as string).repeat(Math.ceil(pad / 2));
            else out += (fill as string).repeat(pad);
          }
        }
      }
      return out;
    },
  );
}

const STR: Record<string, Method<string>> = {
  startswith: (s, a) => startsOrEnds(s, a[0], false),
  endswith: (s, a) => startsOrEnds(s, a[0], true),
  split: (s, a, kw) => pySplit(s, a[0] ?? kw.sep, a[1] ?? kw.maxsplit),
  rsplit: (s, a, kw) => pySplit(s, a[0] ?? kw.sep, a[1] ?? kw.maxsplit, true),
  splitlines: (s) => s.split(/\r?\n/).filter((_, i, all) => i < all.length - 1 || all[i] !== ''),
  lower: (s) => s.toLowerCase(),
  upper: (s) => s.toUpperCase(),
  title: (s) => s.toLowerCase().replace(/(^|[^A-Za-z])([a-z])/g, (_m, p, c: string) => p + c.toUpperCase()),
  capitalize: (s) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase(),
  swapcase: (s) => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(''),
  strip: (s, a) => strip(s, a[0], 'both'),
  lstrip: (s, a) => strip(s, a[0], 'left'),
  rstrip: (s, a) => strip(s, a[0], 'right'),
  replace: (s, a) => {
    const count = typeof a[2] === 'number' && a[2] >= 0 ? a[2] : Number.POSITIVE_INFINITY;
    const parts = s.split(str(a[0]));
    if (parts.length - 1 <= count) return parts.join(str(a[1]));
    return parts.slice(0, count + 1).join(str(a[1])) + str(a[0]) + parts.slice(count + 1).join(str(a[0]));
  },
  join: (s, a) =>
    iterate(a[0])
      .map((x) => {
        if (typeof x !== 'string')
          throw new TemplateError(`sequence item: expected str instance, ${typeName(x)} found`);
        return x;
      })
      .join(s),
  format: (s, a, kw) => pyFormat(s, a, kw),
  find: (s, a) => s.indexOf(str(a[0])),
  rfind: (s, a) => s.lastIndexOf(str(a[0])),
  index: (s, a) => {
    const i = s.indexOf(str(a[0]));
    if (i < 0) throw new TemplateError('substring not found');
    return i;
  },
  count: (s, a) => s.split(str(a[0])).length - 1,
  isdigit: (s) => /^\d+$/.test(s),
  isnumeric: (s) => /^\d+$/.test(s),
  isalpha: (s) => /^[A-Za-z]+$/.test(s),
  isalnum: (s) => /^[A-Za-z0-9]+$/.test(s),
  isspace: (s) => /^\s+$/.test(s),
  islower: (s) => /[a-z]/.test(s) && s === s.toLowerCase(),
  isupper: (s) => /[A-Z]/.test(s) && s === s.toUpperCase(),
  zfill: (s, a) =>
    s[0] === '-' || s[0] === '+'
      ? s[0] + s.slice(1).padStart(Number(a[0]) - 1, '0')
      : s.padStart(Number(a[0]), '0'),
  ljust: (s, a) => s.padEnd(Number(a[0]), str(a[1] ?? ' ')),
  rjust: (s, a) => s.padStart(Number(a[0]), str(a[1] ?? ' ')),
  center: (s, a) => {
    const w = Number(a[0]);
    const pad = Math.max(0, w - s.length);
    const left = Math.floor(pad / 2) + (pad % 2 && w % 2 ? 1 : 0);
    return ' '.repeat(left) + s + ' '.repeat(pad - left);
  },
  partition: (s, a) => {
    const sep = str(a[0]);
    const i = s.indexOf(sep);
    return i < 0 ? [s, '', ''] : [s.slice(0, i), sep, s.slice(i + sep.length)];
  },
  rpartition: (s, a) => {
    const sep = str(a[0]);
    const i = s.lastIndexOf(sep);
    return i < 0 ? ['', '', s] : [s.slice(0, i), sep, s.slice(i + sep.length)];
  },
  encode: (s) => s,
  decode: (s) => s,
};

const DICT: Record<string, Method<Record<string, unknown>>> = {
  get: (m, a) => {
    const key = str(a[0]);
    return Object.hasOwn(m, key) ? m[key] : (a[1] ?? null);
  },
  items: (m) => mapEntries(m),
  keys: (m) => mapKeys(m),
  values: (m) => Object.values(m),
  update: (m, a, kw) => {
    const src = a[0];
    if (isMap(src)) {
      Object.assign(m, src);
      for (const k of Object.keys(src)) {
        const kv = keyValue(src, k);
        if (kv !== k) setKeyValue(m, k, kv);
      }
    } else if (Array.isArray(src)) for (const pair of src) if (Array.isArray(pair)) m[str(pair[0])] = pair[1];
    Object.assign(m, kw);
    return null;
  },
  setdefault: (m, a) => {
    const key = str(a[0]);
    if (!Object.hasOwn(m, key)) m[key] = a[1] ?? null;
    return m[key];
  },
  pop: (m, a) => {
    const key = str(a[0]);
    if (Object.hasOwn(m, key)) {
      const v = m[key];
      delete m[key];
      return v;
    }
    if (a.length > 1) return a[1];
    throw new TemplateError(`KeyError: ${repr(key)}`);
  },
  popitem: (m) => {
    const key = Object.keys(m).at(-1);
    if (key === undefined) throw new TemplateError("KeyError: 'popitem(): dictionary is empty'");
    const v = m[key];
    delete m[key];
    return tuple([keyValue(m, key), v]);
  },
  copy: (m) => (isOrdered(m) ? markOrdered({ ...m }) : { ...m }),
  clear: (m) => {
    for (const k of Object.keys(m)) delete m[k];
    return null;
  },
  has_key: (m, a) => Object.hasOwn(m, str(a[0])),
};

const LIST: Record<string, Method<unknown[]>> = {
  append: (l, a) => {
    l.push(a[0]);
    return null;
  },
  extend: (l, a) => {
    l.push(...iterate(a[0]));
    return null;
  },
  insert: (l, a) => {
    l.splice(Number(a[0]), 0, a[1]);
    return null;
  },
  pop: (l, a) => {
    if (l.length === 0) throw new TemplateError('pop from empty list');
    const i = a.length > 0 ? Number(a[0]) : l.length - 1;
    return l.splice(i < 0 ? l.length + i : i, 1)[0];
  },
  remove: (l, a) => {
    const i = l.findIndex((x) => equal(x, a[0]));
    if (i < 0) throw new TemplateError('list.remove(x): x not in list');
    l.splice(i, 1);
    return null;
  },
  index: (l, a) => {
    const i = l.findIndex((x) => equal(x, a[0]));
    if (i < 0) throw new TemplateError(`${repr(a[0])} is not in list`);
    return i;
  },
  count: (l, a) => l.filter((x) => equal(x, a[0])).length,
  reverse: (l) => {
    l.reverse();
    return null;
  },
  sort: (l, _a, kw) => {
    l.sort((x, y) => compare(x, y, '<'));
    if (kw.reverse) l.reverse();
    return null;
  },
  copy: (l) => [...l],
};

/** Python's `%` string formatting: `%s %r %d %i %f %.2f %x %o %%` and `%(name)s` with a mapping. */
export function percentFormat(fmt: string, values: unknown): string {
  const positional = Array.isArray(values) ? values : [values];
  let i = 0;
  return fmt.replace(
    /%(\(([^)]*)\))?([-+ 0#]*)(\d+|\*)?(?:\.(\d+))?([sdifrxXoeEgGc%])/g,
    (_m, _k, key, flags: string, width, prec, conv) => {
      if (conv === '%') return '%';
      let v: unknown;
      if (key !== undefined) {
        if (!isMap(values) || !Object.hasOwn(values, key)) throw new TemplateError(`KeyError: '${key}'`);
        v = values[key];
      } else {
        if (i >= positional.length) throw new TemplateError('not enough arguments for format string');
        v = positional[i++];
      }
      let out: string;
      const n = () => {
        const x = defined(v);
        if (isNumber(x) || typeof x === 'boolean') return numValue(x);
        throw new TemplateError(`%${conv} format: a number is required, not ${typeName(x)}`);
      };
      switch (conv) {
        case 's':
          out = str(v);
          break;
        case 'r':
          out = repr(v);
          break;
        case 'd':
        case 'i':
          out = String(Math.trunc(n()));
          break;
        case 'x':
          out = Math.trunc(n()).toString(16);
          break;
        case 'X':
          out = Math.trunc(n()).toString(16).toUpperCase();
          break;
        case 'o':
          out = Math.trunc(n()).toString(8);
          break;
        case 'e':
        case 'E':
          out = n().toExponential(prec === undefined ? 6 : Number(prec));
          if (conv === 'E') out = out.toUpperCase();
          break;
        case 'c':
          out = typeof v === 'number' ? String.fromCodePoint(v) : str(v);
          break;
        default:
          out = n().toFixed(prec === undefined ? 6 : Number(prec));
      }
      if (prec !== undefined && conv === 's') out = out.slice(0, Number(prec));
      const w = width && width !== '*' ? Number(width) : 0;
      if (out.length < w)
        out = flags.includes('-')
          ? out.padEnd(w)
          : flags.includes('0') && conv !== 's'
            ? out.padStart(w, '0')
            : out.padStart(w);
      return out;
    },
  );
}

/** Whether `o` (a str, dict or list) has Python method `name`. */
export function hasPyMethod(o: unknown, name: string): boolean {
  const table: Record<string, unknown> | undefined =
    typeof o === 'string' ? STR : isMap(o) ? DICT : Array.isArray(o) ? LIST : undefined;
  return table !== undefined && Object.hasOwn(table, name);
}

/**
 * The argument positions where a Python method only stores or returns the value it is given
 * (`d.get(k, default)`, `l.append(x)`): a StrictUndefined there is held, as in Jinja, and fails
 * only where it is used.
 */
const HOLDS: Readonly<Record<string, number>> = { get: 1, setdefault: 1, pop: 1, append: 0, insert: 1 };

/** Python method `name`'s arguments, each forced to be defined except where the method holds it. */
export function methodArgs(name: string, args: unknown[]): unknown[] {
  const held = Object.hasOwn(HOLDS, name) ? HOLDS[name] : -1;
  return args.map((a, i) => (i === held ? a : defined(a)));
}

/** Calls Python method `name` on `o`. */
export function pyMethod(
  o: unknown,
  name: string,
  args: unknown[],
  kwargs: Record<string, unknown>,
): unknown {
  const table: Record<string, Method<never>> | undefined =
    typeof o === 'string' ? STR : isMap(o) ? DICT : Array.isArray(o) ? LIST : undefined;
  const fn = table && Object.hasOwn(table, name) ? (table[name] as Method<unknown>) : undefined;
  if (!fn) throw new TemplateError(`'${typeName(o)} object' has no attribute '${name}'`);
  return fn(o, args, kwargs);
}
