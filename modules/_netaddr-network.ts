/**
 * IP networks read and written the way python-netaddr 0.8 (Debian bookworm's, which Salt's
 * `netaddress` module uses) does it: `IPNetwork(text)` tries IPv4 (a full dotted quad, else a
 * partial one such as `10/8` or `192.168/16`, padded with zeros), then IPv6; the prefix is a
 * length, a netmask or a hostmask. Addresses print as glibc's `inet_ntop` prints them.
 */
import { SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pythonError } from './_py-exception.js';
import { parsePyInt } from './_py-int.js';
import { pyShortTypeName } from './_py-type-name.js';

/** A parsed network: the address as given (not masked), its prefix length and family width. */
export interface IpNetwork {
  value: bigint;
  prefix: number;
  width: 32 | 128;
}

/** netaddr's `AddrFormatError`, which Salt's module lets through unhandled. */
const addrFormatError = (message: string): Error => pythonError('AddrFormatError', message);

/** glibc's `inet_pton(AF_INET)`: four decimal octets, no leading zeros. */
function pton4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return undefined;
    value = (value << 8n) | BigInt(p);
  }
  return value;
}

/** netaddr's `expand_partial_address`, then `inet_pton`: `10.1` is 10.1.0.0. */
function partial4(text: string): bigint | undefined {
  if (text.includes(':')) return undefined;
  const tokens = text.includes('.') ? text.split('.') : [text];
  if (tokens.length > 4) return undefined;
  const octets: number[] = [];
  for (const t of tokens) {
    const n = parsePyInt(t);
    if (n === undefined) return undefined;
    octets.push(n);
  }
  while (octets.length < 4) octets.push(0);
  return pton4(octets.join('.'));
}

/** glibc's `inet_pton(AF_INET6)`: hex groups, one `::`, an IPv4 tail allowed. */
function pton6(text: string): bigint | undefined {
  let head = text;
  let tail4: bigint | undefined;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    tail4 = pton4(text.slice(lastColon + 1));
    if (tail4 === undefined) return undefined;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const group = /^[0-9a-fA-F]{1,4}$/;
  const split = (s: string): string[] | undefined => {
    if (s === '') return [];
    const g = s.split(':');
    return g.every((x) => group.test(x)) ? g : undefined;
  };
  const left = split(halves[0] ?? '');
  const right = halves.length === 2 ? split(halves[1] ?? '') : [];
  if (!left || !right) return undefined;
  const count = left.length + right.length;
  if (halves.length === 2 ? count > 7 : count !== 8) return undefined;
  const words = [...left, ...Array<string>(8 - count).fill('0'), ...right];
  let value = 0n;
  for (const w of words) value = (value << 16n) | BigInt(`0x${w}`);
  if (tail4 !== undefined) value = (value & ~0xffffffffn) | tail4;
  return value;
}

const allOnes = (width: number): bigint => (1n << BigInt(width)) - 1n;

/** The prefix a mask address stands for: a netmask's ones, else a hostmask's zeros. */
function maskPrefix(mask: bigint, width: number): number | undefined {
  const isPow2 = (n: bigint) => (n & (n - 1n)) === 0n;
  const inverted = mask ^ allOnes(width);
  if (isPow2(inverted + 1n)) return width - bitLength(inverted);
  if (isPow2(mask + 1n)) return width - bitLength(mask);
  return undefined;
}

const bitLength = (n: bigint): number => (n === 0n ? 0 : n.toString(2).length);

function parseFamily(text: string, width: 32 | 128): IpNetwork | undefined {
  const slash = text.indexOf('/');
  const addr = slash < 0 ? text : text.slice(0, slash);
  const rest = slash < 0 ? undefined : text.slice(slash + 1);
  const pton = width === 32 ? pton4 : pton6;
  const value = pton(addr) ?? (width === 32 ? partial4(addr) : undefined);
  if (value === undefined) return undefined;
  let prefix: number | undefined = width;
  if (rest !== undefined) {
    prefix = parsePyInt(rest);
    if (prefix === undefined) {
      const mask = pton(rest);
      if (mask === undefined) return undefined;
      prefix = maskPrefix(mask, width);
    }
  }
  if (prefix === undefined || prefix < 0 || prefix > width) return undefined;
  return { value, prefix, width };
}

/** netaddr's `IPNetwork(cidr)`: its TypeError for a value that is no string, else AddrFormatError. */
export function parseNetwork(cidr: unknown): IpNetwork {
  if (typeof cidr !== 'string') {
    // a TypeError, which salt-call reports as invalid arguments
    throw new SALT_ERR_INVOCATION(`unexpected type <class '${pyShortTypeName(cidr)}'> for addr arg`);
  }
  const net = parseFamily(cidr, 32) ?? parseFamily(cidr, 128);
  if (!net) throw addrFormatError(`invalid IPNetwork ${cidr}`);
  return net;
}

export const netmaskOf = (n: IpNetwork): bigint =>
  (allOnes(n.prefix) << BigInt(n.width - n.prefix)) & allOnes(n.width);
export const firstOf = (n: IpNetwork): bigint => n.value & netmaskOf(n);
export const lastOf = (n: IpNetwork): bigint => n.value | (allOnes(n.width) ^ netmaskOf(n));

/** An IPv4 address in dotted decimal. */
export function format4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
}

/** An IPv6 address as glibc's `inet_ntop` writes it (longest zero run of two or more as `::`). */
export function format6(value: bigint): string {
  const words = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = { base: -1, len: 0 };
  let cur = { base: -1, len: 0 };
  words.forEach((w, i) => {
    if (w === 0) {
      cur = cur.base === -1 ? { base: i, len: 1 } : { base: cur.base, len: cur.len + 1 };
      if (cur.len > best.len) best = cur;
    } else cur = { base: -1, len: 0 };
  });
  if (best.len < 2) best = { base: -1, len: 0 };
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (best.base !== -1 && i >= best.base && i < best.base + best.len) {
      if (i === best.base) out += ':';
      continue;
    }
    if (i !== 0) out += ':';
    if (i === 6 && best.base === 0 && (best.len === 6 || (best.len === 5 && words[5] === 0xffff))) {
      return out + format4(value & 0xffffffffn);
    }
    out += (words[i] ?? 0).toString(16);
  }
  if (best.base !== -1 && best.base + best.len === 8) out += ':';
  return out;
}

/** An address of the network's family, as netaddr's `str(IPAddress)`. */
export const formatIn = (n: IpNetwork, value: bigint): string =>
  n.width === 32 ? format4(value) : format6(value);
