/**
 * `ipcidr` targets (`-S`, `S@`): an IP address or a network in CIDR notation, compared with the
 * minion's `ipv4` / `ipv6` grains, as Salt's `ipcidr_match` does with Python's `ipaddress`
 * (a network must have no host bits set).
 */
import { isIPv4, isIPv6 } from 'node:net';
import { SALT_ERR_TARGET_INVALID } from '../errors.js';

export interface IpTarget {
  version: 4 | 6;
  /** The network's first address (the address itself for an address target). */
  base: bigint;
  /** Prefix length; 32 or 128 for an address target. */
  prefix: number;
  isNetwork: boolean;
}

function v4ToBig(text: string): bigint {
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function v6ToBig(raw: string): bigint {
  let text = raw.split('%')[0] as string;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    // an embedded IPv4 tail (::ffff:1.2.3.4) is two groups
    const v4 = v4ToBig(text.slice(lastColon + 1));
    tail = [Number(v4 >> 16n), Number(v4 & 0xffffn)];
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (s: string | undefined): number[] =>
    s
      ? s
          .split(':')
          .filter((p) => p !== '')
          .map((p) => Number.parseInt(p, 16))
      : [];
  const left = parse(head);
  const right = [...parse(rest), ...tail];
  const fill = rest === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  const groups = rest === undefined ? [...left, ...tail] : [...left, ...fill, ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

/** Parses an address (`ip_address`) or a strict network (`ip_network`); throws when neither. */
export function parseIpTarget(tgt: unknown): IpTarget {
  const text = typeof tgt === 'string' ? tgt : '';
  if (isIPv4(text)) return { version: 4, base: v4ToBig(text), prefix: 32, isNetwork: false };
  if (isIPv6(text)) return { version: 6, base: v6ToBig(text), prefix: 128, isNetwork: false };
  const slash = text.indexOf('/');
  const addr = slash < 0 ? text : text.slice(0, slash);
  const mask = slash < 0 ? undefined : text.slice(slash + 1);
  const version = isIPv4(addr) ? 4 : isIPv6(addr) && !addr.includes('%') ? 6 : undefined;
  if (version && mask !== undefined) {
    const bits = version === 4 ? 32 : 128;
    let prefix: number | undefined;
    if (/^\d{1,3}$/.test(mask)) prefix = Number(mask);
    else if (version === 4 && isIPv4(mask)) {
      // a netmask (255.255.0.0) or a host mask (0.0.255.255), as Python accepts
      const m = v4ToBig(mask);
      for (const v of [m, m ^ 0xffffffffn]) {
        const ones = v.toString(2).padStart(32, '0');
        if (/^1*0*$/.test(ones)) {
          prefix = ones.indexOf('0') < 0 ? 32 : ones.indexOf('0');
          break;
        }
      }
    }
    if (prefix !== undefined && prefix <= bits) {
      const base = version === 4 ? v4ToBig(addr) : v6ToBig(addr);
      const hostBits = BigInt(bits - prefix);
      if ((base & ((1n << hostBits) - 1n)) !== 0n)
        throw new SALT_ERR_TARGET_INVALID(
          `invalid IP/CIDR target ${JSON.stringify(text)}: it has host bits set`,
        );
      return { version, base, prefix, isNetwork: true };
    }
  }
  throw new SALT_ERR_TARGET_INVALID(
    `invalid IP/CIDR target ${JSON.stringify(String(tgt))}: expected an IP address or a network such as 10.0.0.0/8`,
  );
}

function addressValue(text: unknown, version: 4 | 6): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  if (version === 4) return isIPv4(text) ? v4ToBig(text) : undefined;
  return isIPv6(text) ? v6ToBig(text) : undefined;
}

/** True when one of the minion's `ipv4` / `ipv6` grains is the address or lies in the network. */
export function ipcidrMatch(target: IpTarget, grains: unknown): boolean {
  if (typeof grains !== 'object' || grains === null) return false;
  const list = (grains as Record<string, unknown>)[`ipv${target.version}`];
  if (!Array.isArray(list)) return false;
  const bits = target.version === 4 ? 32 : 128;
  const shift = BigInt(bits - target.prefix);
  return list.some((item) => {
    const v = addressValue(item, target.version);
    if (v === undefined) return false;
    return target.isNetwork ? v >> shift === target.base >> shift : v === target.base;
  });
}
