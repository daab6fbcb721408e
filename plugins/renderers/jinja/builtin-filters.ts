/**
 * Jinja2 3.1's built-in filters and tests that the core and Salt sets did not have, or had in a
 * simpler form (`groupby`, `slice`, `wordwrap`, `truncate`, `format`, `xmlattr`, `urlencode`,
 * `filesizeformat`, `striptags`, `int` with a base, `sort` by several attributes, ...), written
 * from Jinja's documented behaviour over the engine's Python-like values.
 */

import { randomInt } from 'node:crypto';
import { arg, type Fn, pyJson } from './filters.js';
import { percentFormat } from './methods.js';
import { isNumber, numValue } from './numbers.js';
import {
  compare,
  defined,
  equal,
  getItem,
  isMap,
  iterate,
  JinjaFunction,
  Macro,
  namedTuple,
  repr,
  str,
  TemplateError,
  truthy,
  tuple,
  typeName,
  Undefined,
} from './values.js';

/** `x.a.b` (digits index lists), as Jinja's `make_attrgetter` reads `attribute`. */
export function attrOf(x: unknown, path: unknown): unknown {
  if (path === null || path === undefined) return x;
  let v = x;
  for (const part of str(path).split('.'))
    v = getItem(v, /^\d+$/.test(part) && Array.isArray(v) ? Number(part) : part, 'attr');
  return v;
}

const fold = (caseSensitive: boolean) => (v: unknown) =>
  typeof v === 'string' && !caseSensitive ? v.toLowerCase() : v;

/** Python's ordering of two sort keys (tuples compare item by item). */
function cmpKeys(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    if (equal(a[i], b[i])) continue;
    return compare(a[i], b[i], '<');
  }
  return 0;
}

/** `urllib.parse.quote`: only letters, digits and `_.-~` (and `safe`) stay as they are. */
function urlQuote(value: unknown, forQs: boolean): string {
  const s = typeof value === 'string' ? value : str(value);
  const out = encodeURIComponent(s).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return forQs ? out.replace(/%20/g, '+') : out.replace(/%2F/g, '/');
}

export function htmlEscape(v: unknown): string {
  return str(v)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&#34;')
    .replace(/'/g, '&#39;');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** `textwrap.wrap` of one paragraph (no tab expansion, whitespace kept inside lines). */
function wrapLine(line: string, width: number, breakLong: boolean): string[] {
  const chunks = line.split(/(\s+)/).filter((c) => c !== '');
  const lines: string[] = [];
  let cur: string[] = [];
  let len = 0;
  const flush = () => {
    while (cur.length && /^\s+$/.test(cur.at(-1) as string)) cur.pop();
    if (cur.length) lines.push(cur.join(''));
    cur = [];
    len = 0;
  };
  for (let i = 0; i < chunks.length; i++) {
    let c = chunks[i] as string;
    if (/^\s+$/.test(c) && cur.length === 0 && lines.length > 0) continue;
    if (len + c.length <= width) {
      cur.push(c);
      len += c.length;
      continue;
    }
    if (c.length > width && breakLong && !/^\s+$/.test(c)) {
      while (len + c.length > width) {
        const room = Math.max(1, width - len);
        cur.push(c.slice(0, room));
        c = c.slice(room);
        flush();
      }
      cur.push(c);
      len = c.length;
      continue;
    }
    flush();
    if (!/^\s+$/.test(c)) {
      cur.push(c);
      len = c.length;
    }
  }
  flush();
  return lines;
}

/** Python's `int(s, base)` with `0x`/`0o`/`0b` prefixes and `_` separators. */
function parseIntBase(s: string, base: number): number | undefined {
  let t = s.trim().replace(/_/g, '').toLowerCase();
  let sign = 1;
  if (t.startsWith('-') || t.startsWith('+')) {
    if (t[0] === '-') sign = -1;
    t = t.slice(1);
  }
  let b = base;
  const prefixes: Record<string, number> = { '0x': 16, '0o': 8, '0b': 2 };
  const p = prefixes[t.slice(0, 2)];
  if (p && (b === p || b === 0)) {
    b = p;
    t = t.slice(2);
  } else if (b === 0) b = 10;
  const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, b);
  if (t === '' || [...t].some((c) => !digits.includes(c))) return undefined;
  return sign * Number.parseInt(t, b);
}

export const BUILTIN_FILTERS: Record<string, Fn> = {
  groupby(v, args, kw) {
    const attribute = arg(args, kw, 0, 'attribute', null);
    const dflt = arg(args, kw, 1, 'default', undefined);
    const key = fold(truthy(arg(args, kw, 2, 'case_sensitive', false)));
    const get = (x: unknown) => {
      const a = attrOf(x, attribute);
      return a instanceof Undefined && dflt !== undefined ? dflt : defined(a);
    };
    const sorted = [...iterate(v)].sort((a, b) => compare(key(get(a)), key(get(b)), '<'));
    const groups: unknown[] = [];
    let last: { k: unknown; items: unknown[] } | undefined;
    for (const x of sorted) {
      const g = get(x);
      if (last && equal(key(last.k), key(g))) last.items.push(x);
      else {
        last = { k: g, items: [x] };
        groups.push(last);
      }
    }
    return groups.map((g) => {
      const { k, items } = g as { k: unknown; items: unknown[] };
      return namedTuple([k, items], ['grouper', 'list']);
    });
  },
  slice(v, args, kw) {
    const seq = iterate(v);
    const slices = Number(arg(args, kw, 0, 'slices', 1));
    const fill = arg(args, kw, 1, 'fill_with', null);
    const per = Math.floor(seq.length / slices);
    const extra = seq.length % slices;
    const out: unknown[][] = [];
    let offset = 0;
    for (let n = 0; n < slices; n++) {
      const start = offset + n * per;
      if (n < extra) offset++;
      const part = seq.slice(start, offset + (n + 1) * per);
      if (fill !== null && n >= extra) part.push(fill);
      out.push(part);
    }
    return out;
  },
  batch(v, args, kw) {
    const n = Number(arg(args, kw, 0, 'linecount', 1));
    const fill = arg(args, kw, 1, 'fill_with', null);
    const items = iterate(v);
    const out: unknown[][] = [];
    for (let i = 0; i < items.length; i += n) {
      const b = items.slice(i, i + n);
      while (fill !== null && b.length < n) b.push(fill);
      out.push(b);
    }
    return out;
  },
  wordwrap(v, args, kw) {
    const width = Number(arg(args, kw, 0, 'width', 79));
    const breakLong = truthy(arg(args, kw, 1, 'break_long_words', true));
    const joiner = str(arg(args, kw, 2, 'wrapstring', '\n'));
    return str(v)
      .split(/\r?\n/)
      .map((line) => wrapLine(line, width, breakLong).join(joiner))
      .join(joiner);
  },
  truncate(v, args, kw) {
    const s = str(v);
    const n = Number(arg(args, kw, 0, 'length', 255));
    const killwords = truthy(arg(args, kw, 1, 'killwords', false));
    const end = str(arg(args, kw, 2, 'end', '...'));
    const leeway = Number(arg(args, kw, 3, 'leeway', 5) ?? 5);
    if (n < end.length) throw new TemplateError(`expected length >= ${end.length}, got ${n}`);
    if (s.length <= n + leeway) return s;
    const cut = s.slice(0, n - end.length);
    if (killwords) return cut + end;
    const sp = cut.lastIndexOf(' ');
    return (sp < 0 ? cut : cut.slice(0, sp)) + end;
  },
  format(v, args, kw) {
    if (args.length && Object.keys(kw).length)
      throw new TemplateError("can't handle positional and keyword arguments at the same time");
    return percentFormat(str(v), Object.keys(kw).length ? kw : tuple([...args]));
  },
  xmlattr(v, args, kw) {
    const d = defined(v);
    if (!isMap(d)) throw new TemplateError(`xmlattr: a mapping is required, not ${typeName(d)}`);
    const items: string[] = [];
    for (const [k, x] of Object.entries(d)) {
      if (x === null || x === undefined || x instanceof Undefined) continue;
      if (/[\s/>=]/.test(k)) throw new TemplateError(`Invalid character in attribute name: ${repr(k)}`);
      items.push(`${htmlEscape(k)}="${htmlEscape(x)}"`);
    }
    const rv = items.join(' ');
    return truthy(arg(args, kw, 0, 'autospace', true)) && rv ? ` ${rv}` : rv;
  },
  urlencode(v) {
    const value = defined(v);
    if (typeof value === 'string' || (!Array.isArray(value) && !isMap(value))) return urlQuote(value, false);
    const pairs = isMap(value) ? Object.entries(value) : value.map((p) => iterate(p));
    return pairs.map(([k, x]) => `${urlQuote(k, true)}=${urlQuote(x, true)}`).join('&');
  },
  filesizeformat(v, args, kw) {
    const bytes = Number(defined(v));
    const binary = truthy(arg(args, kw, 0, 'binary', false));
    const base = binary ? 1024 : 1000;
    const units = binary
      ? ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB', 'ZiB', 'YiB']
      : ['kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
    if (bytes === 1) return '1 Byte';
    if (bytes < base) return `${Math.trunc(bytes)} Bytes`;
    let i = 0;
    while (i < units.length - 1 && bytes >= base ** (i + 2)) i++;
    return `${((base * bytes) / base ** (i + 2)).toFixed(1)} ${units[i]}`;
  },
  striptags(v) {
    const s = str(v)
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<[^>]*>/g, '')
      .split(/\s+/)
      .filter(Boolean)
      .join(' ');
    return s.replace(/&(#\d+|#x[0-9a-fA-F]+|\w+);/g, (m, e: string) => {
      if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
      if (e.startsWith('#')) return String.fromCodePoint(Number(e.slice(1)));
      return ENTITIES[e] ?? m;
    });
  },
  forceescape: (v) => htmlEscape(v),
  random(v) {
    const items = iterate(v);
    if (items.length === 0) return new Undefined('No random item, sequence was empty.');
    return items[randomInt(items.length)];
  },
  pprint: (v) => repr(v),
  int(v, args, kw) {
    const value = defined(v);
    const dflt = arg(args, kw, 0, 'default', 0);
    const base = Number(arg(args, kw, 1, 'base', 10));
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (isNumber(value)) return Number.isFinite(numValue(value)) ? Math.trunc(numValue(value)) : dflt;
    if (typeof value === 'string') {
      const n = parseIntBase(value, base);
      if (n !== undefined) return n;
      const f = value.trim() === '' ? Number.NaN : Number(value.trim());
      return Number.isFinite(f) ? Math.trunc(f) : dflt;
    }
    return dflt;
  },
  sort(v, args, kw) {
    const reverse = truthy(arg(args, kw, 0, 'reverse', false));
    const key = fold(truthy(arg(args, kw, 1, 'case_sensitive', false)));
    const attribute = arg(args, kw, 2, 'attribute', null);
    const attrs = attribute === null ? [null] : str(attribute).split(',');
    const keyOf = (x: unknown) => attrs.map((a) => key(defined(attrOf(x, a))));
    const out = [...iterate(v)].map((x) => ({ x, k: keyOf(x) }));
    out.sort((a, b) => (reverse ? -1 : 1) * cmpKeys(a.k, b.k));
    return out.map((e) => e.x);
  },
};

export const BUILTIN_TESTS: Record<string, (value: unknown, args: unknown[]) => boolean> = {
  escaped: () => false,
  // Jinja's Undefined (StrictUndefined too) has __call__, so Python's callable() is true for it:
  // `salt['no.such'] is callable` is true in Salt
  callable: (v) => v instanceof Macro || v instanceof JinjaFunction || v instanceof Undefined,
  greaterthan: (v, a) => compare(v, a[0], '>') > 0,
  lessthan: (v, a) => compare(v, a[0], '<') < 0,
  '!=': (v, a) => !equal(v, a[0]),
  '<': (v, a) => compare(v, a[0], '<') < 0,
  '<=': (v, a) => compare(v, a[0], '<=') <= 0,
  '>': (v, a) => compare(v, a[0], '>') > 0,
  '>=': (v, a) => compare(v, a[0], '>=') >= 0,
};
