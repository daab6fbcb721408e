/**
 * A small DER (ASN.1 Distinguished Encoding Rules) writer and reader, enough for X.509
 * certificates, CSRs and CRLs: tag-length-value elements, integers, object identifiers, strings,
 * bit strings and times. Node's crypto signs and verifies; this only lays out the bytes.
 */
import { SALT_ERR_INVOCATION } from '../kernel/index.js';

/** Universal tags used by X.509. */
export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  ENUMERATED: 0x0a,
  UTF8: 0x0c,
  PRINTABLE: 0x13,
  T61: 0x14,
  IA5: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  BMP: 0x1e,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

function lengthBytes(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One element: tag, length, then the parts as its content. */
export function tlv(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), lengthBytes(body.length), body]);
}

export const seq = (...parts: Buffer[]): Buffer => tlv(TAG.SEQUENCE, ...parts);

/** A SET OF, its elements sorted by their encoding as DER requires. */
export const setOf = (...parts: Buffer[]): Buffer => tlv(TAG.SET, ...[...parts].sort(Buffer.compare));

/** A context-specific tag: `[n]` constructed (EXPLICIT or a constructed IMPLICIT) or primitive. */
export const ctx = (n: number, constructed: boolean, ...parts: Buffer[]): Buffer =>
  tlv((constructed ? 0xa0 : 0x80) | n, ...parts);

/** The minimal two's complement bytes of a non-negative integer. */
export function intBytes(v: bigint): Buffer {
  let hex = v.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const b = Buffer.from(hex, 'hex');
  return (b[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b;
}

export const derInt = (v: bigint | number): Buffer => tlv(TAG.INTEGER, intBytes(BigInt(v)));
export const derBool = (b: boolean): Buffer => tlv(TAG.BOOLEAN, Buffer.from([b ? 0xff : 0]));
export const derNull = (): Buffer => Buffer.from([TAG.NULL, 0]);
export const derOctets = (b: Buffer): Buffer => tlv(TAG.OCTET_STRING, b);
export const derBits = (b: Buffer, unused = 0): Buffer => tlv(TAG.BIT_STRING, Buffer.from([unused]), b);
export const derString = (tag: number, s: string): Buffer => tlv(tag, Buffer.from(s, 'utf8'));

/** Whether a text is a dotted object identifier. */
export const isOid = (s: string): boolean => /^[0-2](\.\d+)+$/.test(s);

function base128(n: bigint): number[] {
  const out = [Number(n & 0x7fn)];
  for (let v = n >> 7n; v > 0n; v >>= 7n) out.unshift(Number(v & 0x7fn) | 0x80);
  return out;
}

export function derOid(dotted: string): Buffer {
  if (!isOid(dotted)) throw new SALT_ERR_INVOCATION(`Invalid oid: ${dotted}`);
  const arcs = dotted.split('.').map((x) => BigInt(x));
  const bytes = base128((arcs[0] ?? 0n) * 40n + (arcs[1] ?? 0n));
  for (const a of arcs.slice(2)) bytes.push(...base128(a));
  return tlv(TAG.OID, Buffer.from(bytes));
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A time as X.509 writes it: UTCTime before 2050, GeneralizedTime from then on. */
export function derTime(d: Date): Buffer {
  const y = d.getUTCFullYear();
  const rest = `${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
  if (y >= 1950 && y < 2050) return derString(TAG.UTC_TIME, `${pad(y % 100)}${rest}`);
  return derString(TAG.GENERALIZED_TIME, `${pad(y, 4)}${rest}`);
}

/** A parsed element: its tag, its content bytes and its whole encoding. */
export interface DerNode {
  tag: number;
  content: Buffer;
  raw: Buffer;
}

/** The element at `offset` of `buf`. Throws on truncated input. */
export function readNode(buf: Buffer, offset = 0): DerNode {
  const tag = buf[offset];
  let len = buf[offset + 1];
  if (tag === undefined || len === undefined) throw new Error('DER: truncated');
  let start = offset + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error('DER: bad length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (buf[start + i] ?? 0);
    start += n;
  }
  if (start + len > buf.length) throw new Error('DER: truncated');
  return { tag, content: buf.subarray(start, start + len), raw: buf.subarray(offset, start + len) };
}

/** The elements inside a constructed element. */
export function children(node: DerNode): DerNode[] {
  const out: DerNode[] = [];
  for (let off = 0; off < node.content.length; ) {
    const c = readNode(node.content, off);
    out.push(c);
    off += c.raw.length;
  }
  return out;
}

/** The child at index `i`, or an error naming what was expected. */
export function child(node: DerNode, i: number): DerNode {
  const c = children(node)[i];
  if (!c) throw new Error('DER: missing element');
  return c;
}

export const readInt = (n: DerNode): bigint =>
  n.content.length ? BigInt(`0x${n.content.toString('hex')}`) : 0n;

export function readOid(n: DerNode): string {
  const arcs: bigint[] = [];
  let v = 0n;
  for (const b of n.content) {
    v = (v << 7n) | BigInt(b & 0x7f);
    if (!(b & 0x80)) {
      arcs.push(v);
      v = 0n;
    }
  }
  const first = arcs.shift() ?? 0n;
  const a = first < 80n ? first / 40n : 2n;
  return [a, first - a * 40n, ...arcs].join('.');
}

/** A string element's text (BMPString is UTF-16BE). */
export function readString(n: DerNode): string {
  if (n.tag === TAG.BMP) return Buffer.from(n.content).swap16().toString('utf16le');
  return n.content.toString(n.tag === TAG.T61 ? 'latin1' : 'utf8');
}

/** A UTCTime or GeneralizedTime as a Date. */
export function readTime(n: DerNode): Date {
  let s = n.content.toString('ascii').replace(/Z$/, '');
  if (n.tag === TAG.UTC_TIME) s = `${Number(s.slice(0, 2)) >= 50 ? '19' : '20'}${s}`;
  const [y, mo, d, h, mi, se] = [0, 4, 6, 8, 10, 12].map((i, k) => Number(s.slice(i, k === 0 ? 4 : i + 2)));
  return new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, se || 0));
}
