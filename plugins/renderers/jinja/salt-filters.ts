/**
 * The filters and tests Salt's templates have beyond the reactor's core set: Jinja2's other
 * built-ins (`dictsort`, `map`, `selectattr`, `indent`, ...) and Salt's own
 * (`salt/utils/jinja.py` SerializerExtension and the `@jinja_filter` functions across
 * `salt/utils/`: `yaml`, `json`, `yaml_encode`, `traverse`, `regex_*`, `to_bool`, `sequence`,
 * `unique`, `ipaddr`, `strftime`, `sha256`, `base64_*`, ...).
 */

import { createHash, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { loadJson } from '../json-renderer.js';
import { loadYaml } from '../yaml/load.js';
import { attrOf, BUILTIN_FILTERS, BUILTIN_TESTS, htmlEscape } from './builtin-filters.js';
import { arg, FILTERS, type Fn, lengthOf, pyJson, pyJsonIndent, TESTS } from './filters.js';
import { LOCAL_FILTERS } from './local-filters.js';
import { hasPyMethod, pyMethod } from './methods.js';
import { NET_FILTERS } from './net-filters.js';
import { isFloat, isInt, isNumber, numValue, pyFloat, sameKind, yamlFloats } from './numbers.js';
import { pyYamlDoubleQuoted, pyYamlDump, pyYamlSingleQuoted } from './pyyaml-dump.js';
import { SALT_MORE_FILTERS } from './salt-more-filters.js';
import { urlize } from './urlize.js';
import {
  compare,
  defined,
  equal,
  getItem,
  isMap,
  iterate,
  JinjaFunction,
  mapEntries,
  repr,
  str,
  TemplateError,
  truthy,
  tuple,
  typeName,
  Undefined,
} from './values.js';

type Test = (value: unknown, args: unknown[]) => boolean;

function sortKey(caseSensitive: unknown) {
  return (v: unknown) => (typeof v === 'string' && !caseSensitive ? v.toLowerCase() : v);
}

function pyRegex(pattern: unknown, flags = ''): RegExp {
  let p = str(pattern);
  let f = flags;
  const inline = /^\(\?([aiLmsux]+)\)/.exec(p);
  if (inline) {
    p = p.slice(inline[0].length);
    for (const c of inline[1] as string) if ('ims'.includes(c) && !f.includes(c)) f += c;
  }
  p = p.replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>').replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>');
  try {
    return new RegExp(p, f);
  } catch (err) {
    throw new TemplateError(`bad regular expression ${repr(str(pattern))}: ${(err as Error).message}`);
  }
}

function reFlags(kwargs: Record<string, unknown>): string {
  return `${kwargs.ignorecase ? 'i' : ''}${kwargs.multiline ? 'm' : ''}`;
}

function matchGroups(m: RegExpExecArray | null): unknown {
  if (!m) return null;
  return tuple(m.length > 1 ? m.slice(1).map((g) => g ?? null) : []);
}

/** Salt's `to_bool`. */
export function toBool(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (isNumber(v)) return numValue(v) > 0;
  if (typeof v === 'string') return ['true', '1', 'yes', 'on'].includes(v.toLowerCase());
  if (Array.isArray(v) || isMap(v)) return lengthOf(v) > 0;
  return false;
}

/** Salt's `traverse`: `a:b:0` through mappings and lists. */
export function traverse(data: unknown, key: string, def: unknown = null, delimiter = ':'): unknown {
  let v = data;
  for (const part of key.split(delimiter)) {
    if (isMap(v) && Object.hasOwn(v, part)) v = v[part];
    else if (Array.isArray(v) && /^-?\d+$/.test(part) && v.at(Number(part)) !== undefined)
      v = v.at(Number(part));
    else return def;
  }
  return v;
}

/** Salt's `yaml_encode`: a scalar as PyYAML represents it, a string double-quoted. */
function yamlScalar(v: unknown): string {
  if (typeof v === 'string') return pyYamlDoubleQuoted(v);
  if (v === null || typeof v === 'boolean' || isNumber(v)) return pyYamlDump(v, false);
  throw new TemplateError(`yaml_encode() only works with YAML scalar data; failed for ${typeName(v)}`);
}

/**
 * Salt's `yaml` filter: PyYAML's `safe_dump` (pyyaml-dump.ts), flow style unless
 * `flow_style=False`, except that lines are not folded at column 80: PyYAML reads a folded
 * flow collection back whatever its indentation, the YAML 1.2 loader SLS files go through
 * wants continuation lines indented past the block holding them (`map: {{ big | yaml }}`).
 */
function saltYaml(value: unknown, flow: unknown): string {
  return pyYamlDump(defined(value), flow !== false, true, Number.POSITIVE_INFINITY);
}

function hash(algo: string): Fn {
  return (v) => createHash(algo).update(str(v)).digest('hex');
}

function ipFilter(version: 0 | 4 | 6): Fn {
  return (value, args) => {
    const opt = args[0];
    const one = (x: unknown): unknown => {
      const s = str(x);
      const [addr = '', prefix] = s.split('/');
      const fam = isIP(addr);
      if (fam === 0 || (version !== 0 && fam !== version)) return null;
      if (prefix !== undefined && !/^\d+$/.test(prefix)) return null;
      if (opt === 'address') return addr;
      if (opt === 'prefix') return prefix === undefined ? (fam === 4 ? 32 : 128) : Number(prefix);
      return s;
    };
    if (Array.isArray(value)) return value.map(one).filter((x) => x !== null);
    const r = one(value);
    return r;
  };
}

function strftime(value: unknown, fmt: unknown): string {
  const v = defined(value);
  const d = isNumber(v) ? new Date(numValue(v) * 1000) : new Date(str(v).replace(' ', 'T'));
  if (Number.isNaN(d.getTime())) throw new TemplateError(`strftime: cannot read ${repr(v)} as a date`);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const months = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ];
  const map: Record<string, () => string> = {
    Y: () => String(d.getUTCFullYear()),
    y: () => p(d.getUTCFullYear() % 100),
    m: () => p(d.getUTCMonth() + 1),
    d: () => p(d.getUTCDate()),
    H: () => p(d.getUTCHours()),
    I: () => p(((d.getUTCHours() + 11) % 12) + 1),
    M: () => p(d.getUTCMinutes()),
    S: () => p(d.getUTCSeconds()),
    f: () => p(d.getUTCMilliseconds() * 1000, 6),
    p: () => (d.getUTCHours() < 12 ? 'AM' : 'PM'),
    A: () => days[d.getUTCDay()] as string,
    a: () => (days[d.getUTCDay()] as string).slice(0, 3),
    B: () => months[d.getUTCMonth()] as string,
    b: () => (months[d.getUTCMonth()] as string).slice(0, 3),
    j: () => p(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1, 3),
    s: () => String(Math.floor(d.getTime() / 1000)),
    '%': () => '%',
  };
  return str(fmt ?? '%Y-%m-%d').replace(/%([a-zA-Z%])/g, (m, c: string) => (map[c] ? map[c]() : m));
}

/** Python's `quote_plus`. */
const plusEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');

const uniq = (items: unknown[]) => items.filter((x, i) => items.findIndex((y) => equal(x, y)) === i);

export const SALT_FILTERS: Record<string, Fn> = {
  ...FILTERS,
  ...BUILTIN_FILTERS,
  // Jinja2 built-ins
  title: (v) =>
    str(v)
      .toLowerCase()
      .replace(/(^|[^A-Za-z0-9'])([a-z])/g, (_m, p, c: string) => p + c.toUpperCase()),
  capitalize: (v) => str(v).charAt(0).toUpperCase() + str(v).slice(1).toLowerCase(),
  abs(v) {
    const x = defined(v);
    if (!isNumber(x) && typeof x !== 'boolean')
      throw new TemplateError(`bad operand type for abs(): '${typeName(x)}'`);
    return sameKind(Math.abs(numValue(x)), x);
  },
  round(v, args, kw) {
    const prec = Number(arg(args, kw, 0, 'precision', 0));
    const method = str(arg(args, kw, 1, 'method', 'common'));
    const f = 10 ** prec;
    const n = Number(defined(v)) * f;
    // ceil and floor divide (a float); Python's round keeps an int an int
    if (method === 'ceil') return pyFloat(Math.ceil(n) / f);
    if (method === 'floor') return pyFloat(Math.floor(n) / f);
    if (method !== 'common') throw new TemplateError('method must be common, ceil or floor');
    // Python's round(): halves go to the even neighbour
    const r = Math.round(n);
    return sameKind((Math.abs(n % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r) / f, defined(v));
  },
  dictsort(v, args, kw) {
    const m = defined(v);
    if (!isMap(m)) throw new TemplateError('dictsort: a mapping is required');
    const key = sortKey(arg(args, kw, 0, 'case_sensitive', false));
    const by = arg(args, kw, 1, 'by', 'key') === 'value' ? 1 : 0;
    const out = mapEntries(m)
      .map((e) => tuple(e))
      .sort((a, b) => compare(key(a[by]), key(b[by]), '<'));
    return truthy(arg(args, kw, 2, 'reverse', false)) ? out.reverse() : out;
  },
  unique: (v) => uniq(iterate(v)),
  reverse: (v) => (typeof v === 'string' ? [...v].reverse().join('') : [...iterate(v)].reverse()),
  map(v, args, kw) {
    if (kw.attribute !== undefined)
      return iterate(v).map((x) => {
        const a = attrOf(x, kw.attribute);
        return a instanceof Undefined && kw.default !== undefined ? kw.default : a;
      });
    const name = str(args[0]);
    const fn = SALT_FILTERS[name];
    if (!fn) throw new TemplateError(`no filter named '${name}'`);
    return iterate(v).map((x) => fn(x, args.slice(1), {}));
  },
  select: (v, args) =>
    iterate(v).filter((x) => (args.length ? runTest(args[0], x, args.slice(1)) : truthy(x))),
  reject: (v, args) =>
    iterate(v).filter((x) => !(args.length ? runTest(args[0], x, args.slice(1)) : truthy(x))),
  selectattr: (v, args) =>
    iterate(v).filter((x) => {
      const a = attrOf(x, args[0]);
      return args.length > 1 ? runTest(args[1], a, args.slice(2)) : !(a instanceof Undefined) && truthy(a);
    }),
  rejectattr: (v, args) =>
    iterate(v).filter((x) => {
      const a = attrOf(x, args[0]);
      return !(args.length > 1 ? runTest(args[1], a, args.slice(2)) : !(a instanceof Undefined) && truthy(a));
    }),
  sum(v, args, kw) {
    const attribute = arg(args, kw, 0, 'attribute', null);
    const start = arg(args, kw, 1, 'start', 0);
    const items = iterate(v).map((x) => defined(attrOf(x, attribute)));
    const total = items.reduce((acc: number, x) => acc + Number(x), Number(start));
    return sameKind(total, start, ...items);
  },
  min: (v) =>
    [...iterate(v)].sort((a, b) => compare(a, b, '<'))[0] ?? new Undefined('min of an empty sequence'),
  max: (v) =>
    [...iterate(v)].sort((a, b) => compare(a, b, '<')).at(-1) ?? new Undefined('max of an empty sequence'),
  indent(v, args, kw) {
    const w = arg(args, kw, 0, 'width', 4);
    const pad = typeof w === 'string' ? w : ' '.repeat(Number(w));
    const first = truthy(arg(args, kw, 1, 'first', false));
    const blank = truthy(arg(args, kw, 2, 'blank', false));
    const lines = str(v).split('\n');
    return lines.map((l, i) => ((i === 0 && !first) || (!blank && l.trim() === '') ? l : pad + l)).join('\n');
  },
  center: (v, args) => {
    const s = str(v);
    const w = Number(args[0] ?? 80);
    const pad = Math.max(0, w - s.length);
    return ' '.repeat(Math.floor(pad / 2)) + s + ' '.repeat(Math.ceil(pad / 2));
  },
  items: (v) => Object.entries(defined(v) as Record<string, unknown>).map((e) => tuple(e)),
  attr(v, args) {
    const name = str(args[0]);
    const got = getItem(v, name, 'attr');
    // a str/dict/list method, bound as Python's getattr gives it
    if (got instanceof Undefined && hasPyMethod(v, name))
      return new JinjaFunction(name, (a, kw) => pyMethod(v, name, a, kw));
    return got;
  },
  wordcount: (v) => str(v).split(/\s+/).filter(Boolean).length,
  safe: (v) => v,
  e: (v) => htmlEscape(v),
  escape: (v) => htmlEscape(v),
  tojson: (v, args, kw) =>
    pyJsonIndent(v, arg(args, kw, 0, 'indent', null))
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026')
      .replace(/'/g, '\\u0027'),
  bool: (v) => toBool(v),
  // Salt's serializers (SerializerExtension)
  json: (v, args, kw) =>
    pyJsonIndent(v, arg(args, kw, 1, 'indent', null), {
      sortKeys: truthy(arg(args, kw, 0, 'sort_keys', true)),
      ascii: false,
    }),
  yaml: (v, args, kw) => saltYaml(v, arg(args, kw, 0, 'flow_style', true)),
  python: (v) => repr(v),
  load_yaml: (v) => loadYaml(str(v), { path: '<load_yaml filter>' }) ?? {},
  load_json: (v) => loadJson(str(v), { path: '<load_json filter>' }),
  // Salt's @jinja_filter functions
  yaml_encode: (v) => yamlScalar(defined(v)),
  yaml_dquote: (v) => pyYamlDoubleQuoted(str(v)),
  yaml_squote: (v) => pyYamlSingleQuoted(str(v)),
  to_bool: (v) => toBool(v),
  to_num(v) {
    const s = defined(v);
    const n = Number(s);
    return typeof s === 'string' && s.trim() !== '' && !Number.isNaN(n) ? n : s;
  },
  traverse: (v, args) => traverse(defined(v), str(args[0]), args[1] ?? null, str(args[2] ?? ':')),
  sequence: (v) => (Array.isArray(v) ? v : [v]),
  to_list: (v) => (Array.isArray(v) ? v : [v]),
  flatten(v) {
    const out: unknown[] = [];
    const walk = (x: unknown) => {
      if (Array.isArray(x)) x.forEach(walk);
      else out.push(x);
    };
    walk(defined(v));
    return out;
  },
  difference: (v, args) => uniq(iterate(v).filter((x) => !iterate(args[0]).some((y) => equal(x, y)))),
  intersect: (v, args) => uniq(iterate(v).filter((x) => iterate(args[0]).some((y) => equal(x, y)))),
  union: (v, args) => uniq([...iterate(v), ...iterate(args[0])]),
  symmetric_difference: (v, args) => {
    const a = iterate(v);
    const b = iterate(args[0]);
    return uniq([
      ...a.filter((x) => !b.some((y) => equal(x, y))),
      ...b.filter((x) => !a.some((y) => equal(x, y))),
    ]);
  },
  avg: (v) => {
    const a = iterate(v).map(Number);
    return a.length ? a.reduce((x, y) => x + y, 0) / a.length : 0;
  },
  regex_match: (v, args, kw) => matchGroups(pyRegex(`^(?:${str(args[0])})`, reFlags(kw)).exec(str(v))),
  regex_search: (v, args, kw) => matchGroups(pyRegex(args[0], reFlags(kw)).exec(str(v))),
  regex_replace: (v, args, kw) =>
    str(v).replace(pyRegex(args[0], `g${reFlags(kw)}`), str(args[1]).replace(/\\(\d)/g, '$$$1')),
  quote: (v) => (/^[\w@%+=:,./-]+$/.test(str(v)) ? str(v) : `'${str(v).replace(/'/g, "'\"'\"'")}'`),
  md5: hash('md5'),
  sha1: hash('sha1'),
  sha256: hash('sha256'),
  sha512: hash('sha512'),
  base64_encode: (v) => Buffer.from(str(v), 'utf8').toString('base64'),
  base64_decode: (v) => Buffer.from(str(v), 'base64').toString('utf8'),
  strftime: (v, args) => strftime(v, args[0]),
  date_format: (v, args) => strftime(v, args[0]),
  ipaddr: ipFilter(0),
  ipv4: ipFilter(4),
  ipv6: ipFilter(6),
  is_ip: (v) => isIP(str(v).split('/')[0] ?? '') !== 0,
  is_ipv4: (v) => isIP(str(v).split('/')[0] ?? '') === 4,
  is_ipv6: (v) => isIP(str(v).split('/')[0] ?? '') === 6,
  random_uuid: () => randomUUID(),
  uuid: (v) => {
    // uuid5 in Salt's namespace (salt/utils/jinja.py GLOBAL_UUID)
    const ns = Buffer.from('91633ebf1c865e33935a28061f4b480e', 'hex');
    const h = createHash('sha1').update(ns).update(str(v)).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((Number.parseInt(h[16] as string, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  },
  type: (v) => typeName(v),
  dict_to_sls_yaml_params: (v, args, kw) => {
    const m = defined(v);
    if (!isMap(m))
      throw new TemplateError(`dict_to_sls_yaml_params: a mapping is required, not ${typeName(m)}`);
    const items = Object.entries(m).map(([k, x]) => ({ [k]: x }));
    return saltYaml(items, arg(args, kw, 0, 'flow_style', false));
  },
  ...SALT_MORE_FILTERS,
  ...LOCAL_FILTERS,
  ...NET_FILTERS,
  urlize,
  load_text: (v) => str(v),
};

export const SALT_TESTS: Record<string, Test> = {
  ...TESTS,
  ...BUILTIN_TESTS,
  divisibleby: (v, a) => Number(v) % Number(a[0]) === 0,
  equalto: (v, a) => equal(v, a[0]),
  eq: (v, a) => equal(v, a[0]),
  '==': (v, a) => equal(v, a[0]),
  ne: (v, a) => !equal(v, a[0]),
  sameas: (v, a) => v === a[0],
  in: (v, a) => iterate(a[0]).some((x) => equal(x, v)) || (typeof a[0] === 'string' && a[0].includes(str(v))),
  lower: (v) => typeof v === 'string' && v === v.toLowerCase(),
  upper: (v) => typeof v === 'string' && v === v.toUpperCase(),
  integer: (v) => isInt(v),
  float: (v) => isFloat(v),
  gt: (v, a) => compare(v, a[0], '>') > 0,
  ge: (v, a) => compare(v, a[0], '>=') >= 0,
  lt: (v, a) => compare(v, a[0], '<') < 0,
  le: (v, a) => compare(v, a[0], '<=') <= 0,
  // Salt's tests
  match: (v, a) => pyRegex(`^(?:${str(a[0])})`).test(str(v)),
  list: (v) => Array.isArray(v),
  is_list: (v) => Array.isArray(v),
  is_iter: (v) => Array.isArray(v) || isMap(v),
  is_ip: (v) => isIP(str(v)) !== 0,
  is_ipv4: (v) => isIP(str(v)) === 4,
  is_ipv6: (v) => isIP(str(v)) === 6,
  is_hex: (v) => /^(0x)?[0-9a-fA-F]+$/.test(str(v)),
  contains_whitespace: (v) => /\s/.test(str(v)),
  is_empty: (v) => lengthOf(v) === 0,
};

function runTest(name: unknown, v: unknown, args: unknown[]): boolean {
  const t = SALT_TESTS[str(name)];
  if (!t) throw new TemplateError(`no test named '${str(name)}'`);
  return t(v, args);
}

SALT_TESTS.filter = (v) => typeof v === 'string' && Object.hasOwn(SALT_FILTERS, v);
SALT_TESTS.test = (v) => typeof v === 'string' && Object.hasOwn(SALT_TESTS, v);
