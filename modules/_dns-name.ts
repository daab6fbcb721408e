/**
 * DNS names as the `ddns` module handles them: text parsed as dnspython's `dns.name.from_text`
 * does (dot-separated labels, `\.` and `\DDD` escapes, a trailing dot for an absolute name, `@`
 * for the origin), and their uncompressed wire form (RFC 1035 §3.1).
 */
import { pythonError } from './_py-exception.js';

/** A name: its labels (raw bytes) and whether it ends at the root. */
export interface DnsName {
  labels: Buffer[];
  absolute: boolean;
}

export const ROOT: DnsName = { labels: [], absolute: true };

const DNS_SYNTAX = 'dns.exception.SyntaxError';

/** dnspython's `dns.name.from_text(text, origin)`: a relative name is completed with `origin`. */
export function nameFromText(text: string, origin: DnsName | null = ROOT): DnsName {
  if (text === '@') return origin ?? { labels: [], absolute: false };
  if (text === '.') return ROOT;
  if (text === '') return origin ?? { labels: [], absolute: false };
  const labels: Buffer[] = [];
  let cur: number[] = [];
  let absolute = false;
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i] as number;
    if (c === 0x5c) {
      const d = bytes.subarray(i + 1, i + 4).toString('latin1');
      if (/^\d{3}$/.test(d)) {
        const v = Number(d);
        if (v > 255) throw pythonError(DNS_SYNTAX, 'Text input is malformed.');
        cur.push(v);
        i += 3;
      } else if (i + 1 < bytes.length) {
        cur.push(bytes[i + 1] as number);
        i += 1;
      } else {
        throw pythonError(DNS_SYNTAX, 'Text input is malformed.');
      }
    } else if (c === 0x2e) {
      if (cur.length === 0) throw pythonError('dns.name.EmptyLabel', 'A DNS label is empty.');
      labels.push(checkLabel(cur));
      cur = [];
      if (i === bytes.length - 1) absolute = true;
    } else {
      cur.push(c);
    }
  }
  if (cur.length > 0) labels.push(checkLabel(cur));
  const name = { labels, absolute };
  const full = absolute || origin === null ? name : concat(name, origin);
  if (wireLength(full) > 255) throw pythonError('dns.name.NameTooLong', 'A DNS name is > 255 octets long.');
  return full;
}

function checkLabel(bytes: number[]): Buffer {
  if (bytes.length > 63) throw pythonError('dns.name.LabelTooLong', 'A DNS label is > 63 octets long.');
  return Buffer.from(bytes);
}

/** `name` followed by `origin`'s labels (a relative name made absolute, or longer). */
export function concat(name: DnsName, origin: DnsName): DnsName {
  return { labels: [...name.labels, ...origin.labels], absolute: origin.absolute };
}

function wireLength(n: DnsName): number {
  return n.labels.reduce((sum, l) => sum + l.length + 1, 0) + (n.absolute ? 1 : 0);
}

/** The uncompressed wire form of an absolute name (lower-cased when `canonical`, RFC 4034 §6.2). */
export function nameToWire(name: DnsName, canonical = false): Buffer {
  const parts: Buffer[] = [];
  for (const l of name.labels) {
    parts.push(Buffer.from([l.length]), canonical ? lowerLabel(l) : l);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

function lowerLabel(l: Buffer): Buffer {
  return Buffer.from(l.map((b) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b)));
}

/** Whether two names are the same name (DNS compares labels case-insensitively). */
export function sameName(a: DnsName, b: DnsName): boolean {
  return a.absolute === b.absolute && nameToWire(a, true).equals(nameToWire(b, true));
}

/** dnspython's text of a name: labels joined by dots, special bytes escaped, a trailing dot if absolute. */
export function nameToText(name: DnsName): string {
  if (name.labels.length === 0) return name.absolute ? '.' : '@';
  const text = name.labels.map(labelText).join('.');
  return name.absolute ? `${text}.` : text;
}

function labelText(l: Buffer): string {
  let out = '';
  for (const b of l) {
    if (
      b === 0x2e ||
      b === 0x5c ||
      b === 0x22 ||
      b === 0x28 ||
      b === 0x29 ||
      b === 0x3b ||
      b === 0x40 ||
      b === 0x24
    )
      out += `\\${String.fromCharCode(b)}`;
    else if (b > 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\${String(b).padStart(3, '0')}`;
  }
  return out;
}

/** Reads a (possibly compressed) name at `offset` of a message: the name and the offset after it. */
export function readName(msg: Buffer, offset: number): [DnsName, number] {
  const labels: Buffer[] = [];
  let at = offset;
  let end = -1;
  for (let hops = 0; hops < 128; hops++) {
    const len = byteAt(msg, at);
    if (len === 0) return [{ labels, absolute: true }, end < 0 ? at + 1 : end];
    if ((len & 0xc0) === 0xc0) {
      if (end < 0) end = at + 2;
      at = ((len & 0x3f) << 8) | byteAt(msg, at + 1);
      continue;
    }
    if (len > 63 || at + 1 + len > msg.length) throw formError();
    labels.push(Buffer.from(msg.subarray(at + 1, at + 1 + len)));
    at += 1 + len;
  }
  throw formError();
}

function byteAt(msg: Buffer, at: number): number {
  const b = msg[at];
  if (b === undefined) throw formError();
  return b;
}

export function formError(): Error {
  return pythonError('dns.exception.FormError', 'DNS message is malformed.');
}
