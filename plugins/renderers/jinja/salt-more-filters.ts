/**
 * Salt's `@jinja_filter` functions beyond the first set (salt/utils/network.py, data.py,
 * stringutils.py, hashutils.py, dictupdate.py, jinja.py) and the itertools filters Salt's
 * SerializerExtension adds: `json_query`, the `ipaddr` family with Salt's options,
 * `network_hosts`/`network_size`, `mac_str_to_bytes`, `regex_escape`, `exactly_n_true`,
 * `compare_lists`/`compare_dicts`, `method_call`, `combinations`/`product`/`zip`/...,
 * `dict_to_sls_yaml_params`, `human_to_bytes`, the `*_dict_key_value` setters, and more.
 */
import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { posix } from 'node:path';
import { search as jmesSearch } from 'jmespath';
import { globMatch } from '../../../kernel/util.js';
import {
  type IpValue,
  inNetwork,
  ipProperty,
  ipText,
  networkHosts,
  networkSize,
  parseIp,
} from '../../../modules/_network-ip.js';
import { arg, type Fn } from './filters.js';
import { pyMethod } from './methods.js';
import {
  compare,
  contains,
  defined,
  equal,
  isMap,
  iterate,
  str,
  TemplateError,
  truthy,
  tuple,
  typeName,
} from './values.js';

/** The most hosts `network_hosts` lists (a /8 or an IPv6 /64 would never end). */
const MAX_HOSTS = 65_536;

const OPTION_NAMES: Record<string, string> = {
  global: 'global',
  public: 'global',
  'link-local': 'link_local',
  linklocal: 'link_local',
  ll: 'link_local',
  link_local: 'link_local',
  loopback: 'loopback',
  lo: 'loopback',
  multicast: 'multicast',
  private: 'private',
  reserved: 'reserved',
  'site-local': 'site_local',
  sl: 'site_local',
  site_local: 'site_local',
  unspecified: 'unspecified',
};

/** Salt's `_is_ipv`: the address as text when it is of `version` and passes `options`. */
function isIpv(value: unknown, version: 4 | 6, options: unknown): string | null {
  const ip = parseIp(value);
  if (!ip || ip.version !== version) return null;
  if (options !== null && options !== undefined && options !== '') {
    if (typeof options !== 'string')
      throw new TemplateError(`'${typeName(options)}' object has no attribute 'split'`);
    for (const o of options.split(',').map((x) => x.trim()))
      if (OPTION_NAMES[o] && !ipProperty(ip, OPTION_NAMES[o] as string)) return null;
  }
  return ipText(ip);
}

function ipvFilter(value: unknown, version: 4 | 6, options: unknown): unknown {
  if (typeof value === 'string') return isIpv(value, version, options);
  if (Array.isArray(value))
    return value.map((x) => isIpv(x, version, options)).filter((x): x is string => x !== null);
  return null;
}

function ipaddr(value: unknown, options: unknown): unknown {
  const v4 = ipvFilter(value, 4, options);
  const v6 = ipvFilter(value, 6, options);
  if (v4 === null || v6 === null) return truthy(v4) ? v4 : v6;
  if (Array.isArray(v4) && Array.isArray(v6)) return [...v4, ...v6];
  return v4 || v6;
}

/** Salt's `_filter_ipaddr`: the matching addresses as a list, or undefined. */
function filtered(value: unknown, options: unknown, version: unknown): string[] | undefined {
  const out =
    version === 4
      ? ipvFilter(value, 4, options)
      : version === 6
        ? ipvFilter(value, 6, options)
        : ipaddr(value, options);
  if (!truthy(out)) return undefined;
  return (Array.isArray(out) ? out : [out]) as string[];
}

/** A network filter: `each` of the first match for a single value, of every match for a list. */
function perNetwork(each: (ip: IpValue) => unknown): Fn {
  return (v, args, kw) => {
    const list = filtered(v, arg(args, kw, 0, 'options', null), arg(args, kw, 1, 'version', null));
    if (!list) return null;
    const one = (s: string) => each(parseIp(s) as IpValue);
    return Array.isArray(v) ? list.map(one) : one(list[0] as string);
  };
}

/** `itertools.combinations`-style index walks. */
function combos<T>(items: T[], r: number, withReplacement: boolean): T[][] {
  const out: T[][] = [];
  const walk = (start: number, cur: T[]) => {
    if (cur.length === r) {
      out.push(tuple([...cur]));
      return;
    }
    for (let i = start; i < items.length; i++) walk(withReplacement ? i : i + 1, [...cur, items[i] as T]);
  };
  walk(0, []);
  return out;
}

function permutations<T>(items: T[], r: number): T[][] {
  const out: T[][] = [];
  const walk = (cur: number[]) => {
    if (cur.length === r) {
      out.push(tuple(cur.map((i) => items[i] as T)));
      return;
    }
    for (let i = 0; i < items.length; i++) if (!cur.includes(i)) walk([...cur, i]);
  };
  walk([]);
  return out;
}

function product(lists: unknown[][]): unknown[][] {
  let out: unknown[][] = [[]];
  for (const l of lists) out = out.flatMap((prefix) => l.map((x) => [...prefix, x]));
  return out.map((x) => tuple(x));
}

/** Salt's `_dict_rpartition`: the mapping that holds the last key of `keys`, made on the way. */
function dictAt(
  d: unknown,
  keys: unknown,
  delimiter: unknown,
): { holder: Record<string, unknown>; last: string } {
  if (!isMap(d)) throw new TemplateError(`expected a mapping, not ${typeName(d)}`);
  const parts = str(keys).split(str(delimiter ?? ':'));
  const last = parts.pop() as string;
  let cur: Record<string, unknown> = d;
  for (const p of parts) {
    if (!Object.hasOwn(cur, p) || cur[p] === null) cur[p] = {};
    const next = cur[p];
    if (!isMap(next)) throw new TemplateError(`Cannot create keys over '${p}': it is a ${typeName(next)}`);
    cur = next;
  }
  return { holder: cur, last };
}

/** A copy of `items` in random order. */
function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** Salt's `expr_match`: a glob, else a regular expression matching the whole line. */
function exprMatch(line: string, expr: string): boolean {
  if (globMatch(expr, line)) return true;
  try {
    return new RegExp(`^(?:${expr})$`).test(line);
  } catch {
    return false;
  }
}

/** Python's `re.escape`. */
const regexEscape = (s: string) => s.replace(/[()[\]{}?*+\-|^$\\.&~# \t\n\r\v\f]/g, (c) => `\\${c}`);

function humanToBytes(size: unknown, defaultUnit: unknown, handleMetric: unknown): number {
  const m = /^([0-9.]*)\s*(.*)$/.exec(str(size).trim()) as RegExpExecArray;
  const unit = ((m[2] as string).toLowerCase() || str(defaultUnit ?? 'B').toLowerCase()) as string;
  const value = Number(m[1]);
  if (m[1] === '' || Number.isNaN(value)) return 0;
  let dec = false;
  if (/^[kmgtpezy]b$/.test(unit)) dec = truthy(handleMetric);
  else if (!/^(b|[kmgtpezy](ib)?)$/.test(unit)) return 0;
  const p = 'bkmgtpezy'.indexOf(unit[0] as string);
  return Math.trunc(value * (dec ? 10 ** (p * 3) : 2 ** (p * 10)));
}

export const SALT_MORE_FILTERS: Record<string, Fn> = {
  json_query(v, args) {
    try {
      return jmesSearch(defined(v), str(args[0])) ?? null;
    } catch (err) {
      throw new TemplateError(`json_query: ${(err as Error).message}`);
    }
  },
  ipaddr: (v, args, kw) => ipaddr(defined(v), arg(args, kw, 0, 'options', null)),
  ipv4: (v, args, kw) => ipvFilter(defined(v), 4, arg(args, kw, 0, 'options', null)),
  ipv6: (v, args, kw) => ipvFilter(defined(v), 6, arg(args, kw, 0, 'options', null)),
  is_ip: (v, args, kw) =>
    isIpv(v, 4, arg(args, kw, 0, 'options', null)) !== null ||
    isIpv(v, 6, arg(args, kw, 0, 'options', null)) !== null,
  is_ipv4: (v, args, kw) => isIpv(v, 4, arg(args, kw, 0, 'options', null)) !== null,
  is_ipv6: (v, args, kw) => isIpv(v, 6, arg(args, kw, 0, 'options', null)) !== null,
  ip_host: perNetwork((ip) => ipText({ ...ip, prefix: ip.prefix ?? (ip.version === 4 ? 32 : 128) })),
  network_size: perNetwork(networkSize),
  network_hosts: perNetwork((ip) => {
    const hosts = networkHosts(ip, MAX_HOSTS);
    if (!hosts) throw new TemplateError(`network_hosts: '${ipText(ip)}' has more than ${MAX_HOSTS} hosts`);
    return hosts;
  }),
  ipwrap(v) {
    const wrap = (x: unknown) => (isIpv(x, 6, null) !== null ? `[${str(x)}]` : x);
    return Array.isArray(v) ? v.map(wrap) : wrap(v);
  },
  filter_by_networks(v, args, kw) {
    const nets = arg(args, kw, 0, 'networks', null);
    if (nets === null) return v;
    const parsed = iterate(nets).map((n) => {
      const p = parseIp(n);
      if (!p) throw new TemplateError(`${str(n)} does not appear to be an IPv4 or IPv6 network`);
      return p;
    });
    const keep = (ips: unknown) =>
      iterate(ips).flatMap((ip) => {
        const p = parseIp(ip);
        if (!p || p.prefix !== undefined)
          throw new TemplateError(`${str(ip)} does not appear to be an IPv4 or IPv6 address`);
        return parsed.filter((n) => inNetwork(p, n)).map(() => ip);
      });
    if (isMap(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, keep(x)]));
    if (Array.isArray(v)) return keep(v);
    throw new TemplateError(`Do not know how to filter a ${typeName(v)}`);
  },
  gen_mac(v) {
    const prefix = v === undefined || v === null ? 'AC:DE:48' : str(v);
    const byte = () => randomInt(256).toString(16).toUpperCase().padStart(2, '0');
    return `${prefix}:${byte()}:${byte()}:${byte()}`;
  },
  mac_str_to_bytes(v) {
    let s = str(v);
    if (s.length === 17) s = s.split(s[2] as string).join('');
    else if (s.length !== 12) throw new TemplateError('Invalid MAC address');
    if (!/^[0-9a-fA-F]{12}$/.test(s)) throw new TemplateError('Invalid MAC address');
    return new Uint8Array(Buffer.from(s, 'hex'));
  },
  regex_escape: (v) => regexEscape(str(v)),
  exactly_n_true(v, args, kw) {
    const n = Number(arg(args, kw, 0, 'amount', 1));
    return iterate(v).filter((x) => truthy(x)).length === n;
  },
  exactly_one_true: (v) => iterate(v).filter((x) => truthy(x)).length === 1,
  compare_lists(v, args, kw) {
    const old = iterate(v);
    const nu = iterate(arg(args, kw, 0, 'new', []));
    const ret: Record<string, unknown[]> = {};
    const add = (key: string, x: unknown) => {
      const list = ret[key] ?? [];
      list.push(x);
      ret[key] = list;
    };
    for (const x of nu) if (!contains(old, x)) add('new', x);
    for (const x of old) if (!contains(nu, x)) add('old', x);
    return ret;
  },
  compare_dicts(v, args, kw) {
    const old = defined(v) as Record<string, unknown>;
    const nu = (arg(args, kw, 0, 'new', {}) ?? {}) as Record<string, unknown>;
    const ret: Record<string, unknown> = {};
    for (const k of new Set([...Object.keys(nu), ...Object.keys(old)])) {
      if (!Object.hasOwn(old, k)) ret[k] = { old: '', new: nu[k] };
      else if (!Object.hasOwn(nu, k)) ret[k] = { new: '', old: old[k] };
      else if (!equal(nu[k], old[k])) ret[k] = { old: old[k], new: nu[k] };
    }
    return ret;
  },
  method_call(v, args, kw) {
    const [name, ...rest] = args;
    try {
      return pyMethod(defined(v), str(name), rest, kw);
    } catch (err) {
      if (err instanceof TemplateError && /has no attribute/.test(err.message)) return null;
      throw err;
    }
  },
  combinations: (v, args, kw) => combos(iterate(v), Number(arg(args, kw, 0, 'r', 2)), false),
  combinations_with_replacement: (v, args, kw) => combos(iterate(v), Number(arg(args, kw, 0, 'r', 2)), true),
  permutations(v, args, kw) {
    const items = iterate(v);
    return permutations(items, Number(arg(args, kw, 0, 'r', items.length) ?? items.length));
  },
  product(v, args, kw) {
    const lists = [iterate(v), ...args.map((a) => iterate(a))];
    const repeat = Number(kw.repeat ?? 1);
    return product(Array.from({ length: repeat }, () => lists).flat());
  },
  zip(v, args) {
    const lists = [iterate(v), ...args.map((a) => iterate(a))];
    const n = Math.min(...lists.map((l) => l.length));
    return Array.from({ length: n }, (_x, i) => tuple(lists.map((l) => l[i])));
  },
  zip_longest(v, args, kw) {
    const lists = [iterate(v), ...args.map((a) => iterate(a))];
    const n = Math.max(...lists.map((l) => l.length));
    const fill = kw.fillvalue ?? null;
    return Array.from({ length: n }, (_x, i) => tuple(lists.map((l) => (i < l.length ? l[i] : fill))));
  },
  compress: (v, args) => {
    const sel = iterate(args[0]);
    return iterate(v).filter((_x, i) => i < sel.length && truthy(sel[i]));
  },
  flatten(v, args, kw) {
    const levels = arg(args, kw, 0, 'levels', null);
    const keepNulls = truthy(arg(args, kw, 1, 'preserve_nulls', false));
    const walk = (data: unknown[], depth: number | null): unknown[] =>
      data.flatMap((x) => {
        if (Array.isArray(x)) return depth === null ? walk(x, null) : depth > 0 ? walk(x, depth - 1) : [x];
        return x === null && !keepNulls ? [] : [x];
      });
    return walk(iterate(v), levels === null ? null : Number(levels));
  },
  str_to_num(v) {
    const s = defined(v);
    if (typeof s === 'string' && /^\s*[-+]?\d+\s*$/.test(s)) return Number(s);
    if (typeof s === 'string' && s.trim() !== '' && !Number.isNaN(Number(s))) return Number(s);
    return s;
  },
  to_snake_case(v) {
    const s = str(v);
    let res = (s[0] ?? '').toLowerCase();
    for (let i = 1; i < s.length; i++) {
      const c = s[i] as string;
      const isUpper = c !== c.toLowerCase();
      const lower = (x: string | undefined) => x !== undefined && x !== x.toUpperCase();
      if (isUpper && (lower(s[i - 1]) || (i !== s.length - 1 && lower(s[i + 1])))) res += '_';
      res += c.toLowerCase();
    }
    return res;
  },
  to_camelcase(v, args, kw) {
    const words = str(v).split('_');
    const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
    if (truthy(arg(args, kw, 0, 'uppercamel', false))) words[0] = cap(words[0] as string);
    return (words[0] as string) + words.slice(1).map(cap).join('');
  },
  substring_in_list: (v, args) => iterate(args[0]).some((x) => str(x).includes(str(v))),
  sorted_ignorecase: (v) =>
    [...iterate(v)].sort((a, b) => compare(str(a).toLowerCase(), str(b).toLowerCase(), '<')),
  human_to_bytes: (v, args, kw) =>
    humanToBytes(v, arg(args, kw, 0, 'default_unit', 'B'), arg(args, kw, 1, 'handle_metric', false)),
  is_hex: (v) => typeof v === 'string' && /^\s*[-+]?(0x)?[0-9a-f](_?[0-9a-f])*\s*$/i.test(v),
  contains_whitespace: (v) => /\s/.test(str(v)),
  is_list: (v) => Array.isArray(v),
  is_iter: (v) => Array.isArray(v) || isMap(v),
  is_empty: (v) => iterate(v).length === 0,
  path_join: (v, args) =>
    posix.normalize(
      posix.join(posix.normalize(str(v)), ...args.map((a) => posix.normalize(str(a)).replace(/^\/+/, ''))),
    ),
  skip: () => '',
  to_bytes: (v) => new Uint8Array(Buffer.from(str(v), 'utf8')),
  hmac(v, args, kw) {
    const secret = str(arg(args, kw, 0, 'shared_secret', ''));
    const challenge = str(arg(args, kw, 1, 'challenge_hmac', ''));
    return createHmac('sha256', secret).update(str(v)).digest('base64') === challenge;
  },
  hmac_compute: (v, args, kw) =>
    createHmac('sha256', str(arg(args, kw, 0, 'shared_secret', '')))
      .update(str(v))
      .digest('hex'),
  rand_str: (v, args, kw) => (SALT_MORE_FILTERS.random_hash as Fn)(v, args, kw),
  random_hash(v, args, kw) {
    const size = Number(v ?? 9999999999);
    const algo = str(arg(args, kw, 0, 'hash_type', null) ?? 'md5');
    return createHash(algo)
      .update(String(randomInt(0, Math.min(size, 2 ** 48 - 1) + 1)))
      .digest('hex');
  },
  random_str(v) {
    const size = Number(v ?? 32);
    return randomBytes(size).toString('base64').slice(0, size);
  },
  random_sample(v, args, kw) {
    const items = [...iterate(v)];
    const n = Number(arg(args, kw, 0, 'size', 1));
    if (n > items.length) throw new TemplateError('Sample larger than population or is negative');
    return shuffled(items).slice(0, n);
  },
  random_shuffle: (v) => shuffled([...iterate(v)]),
  check_whitelist_blacklist(v, args, kw) {
    const list = (x: unknown) =>
      x === null || x === undefined || x === '' ? [] : typeof x === 'string' ? [x] : iterate(x);
    const white = list(arg(args, kw, 0, 'whitelist', null));
    const black = list(arg(args, kw, 1, 'blacklist', null));
    const matches = (expr: unknown) => exprMatch(str(v), str(expr));
    const inBlack = black.some(matches);
    const inWhite = white.some(matches);
    if (black.length && !white.length) return !inBlack;
    if (white.length && !black.length) return inWhite;
    if (black.length && white.length) return !inBlack && inWhite;
    return true;
  },
  set_dict_key_value(v, args, kw) {
    const { holder, last } = dictAt(v, args[0], arg(args, kw, 2, 'delimiter', ':'));
    holder[last] = args[1];
    return v;
  },
  update_dict_key_value(v, args, kw) {
    const { holder, last } = dictAt(v, args[0], arg(args, kw, 2, 'delimiter', ':'));
    if (!Object.hasOwn(holder, last) || holder[last] === null) holder[last] = {};
    const target = holder[last];
    if (!isMap(target))
      throw new TemplateError(`The last key contains a ${typeName(target)}, which cannot update.`);
    if (!isMap(args[1])) throw new TemplateError(`Cannot update dict with a ${typeName(args[1])}.`);
    Object.assign(target, args[1]);
    return v;
  },
  append_dict_key_value(v, args, kw) {
    const { holder, last } = dictAt(v, args[0], arg(args, kw, 2, 'delimiter', ':'));
    if (!Object.hasOwn(holder, last) || holder[last] === null) holder[last] = [];
    const target = holder[last];
    if (!Array.isArray(target))
      throw new TemplateError(`The last key contains a ${typeName(target)}, which cannot append.`);
    target.push(args[1]);
    return v;
  },
  extend_dict_key_value(v, args, kw) {
    const { holder, last } = dictAt(v, args[0], arg(args, kw, 2, 'delimiter', ':'));
    if (!Object.hasOwn(holder, last) || holder[last] === null) holder[last] = [];
    const target = holder[last];
    if (!Array.isArray(target))
      throw new TemplateError(`The last key contains a ${typeName(target)}, which cannot extend.`);
    target.push(...iterate(args[1]));
    return v;
  },
};
