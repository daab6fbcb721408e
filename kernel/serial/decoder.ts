/**
 * Salt's msgpack unpacker (`salt.payload.loads`), written by hand: Salt's network form needs
 * every msgpack str read as bytes first, and malformed input must fail with a catalog error
 * without allocating from an unchecked length.
 */
import { SALT_ERR_BUS_DECODE, SaltError } from '../errors.js';
import { EXT_CONSTANT, EXT_DATETIME, SaltConstant, SaltDatetime, SaltFloat } from './salt-types.js';
import { decodeUtf8 } from './utf8.js';

/** Options of {@link unpackNetwork} and {@link unpackIpc}. */
export interface UnpackOptions {
  /**
   * Return floats whose value is integral (Python `1.0`) as {@link SaltFloat}, so that packing
   * the result again writes float 64 as Salt would. Default `false`: they become plain numbers.
   */
  exactFloats?: boolean;
  /** Bytes not read as text, from 64 KiB up, come back as views of the input, not copies (keep it unchanged). */
  viewBytes?: boolean;
}

const NETWORK = 0; // raw=True, then valid UTF-8 bytes become text (frame.decode_embedded_strs)
const IPC = 1; // raw=False: str is text, bin is bytes
const RAW = 2; // raw=True and nothing decoded: Salt's fallback when an IPC str is not UTF-8

/** msgpack-python's unpacker refuses nesting deeper than its 1024-entry stack. */
const MAX_DEPTH = 1024;
/** ext 79 bodies are decoded recursively; a constant inside a constant is already odd. */
const MAX_CONSTANT_NESTING = 8;
const EMPTY = Buffer.alloc(0);
/** Thrown (never escapes) when an IPC str is not UTF-8: Salt then re-reads everything raw. */
const UTF8_FALLBACK = new Error('utf-8 fallback');

// Decoder state; decoding is synchronous and only re-enters itself for ext 79 bodies.
let b: Buffer = EMPTY;
let p = 0;
let end = 0;
let mode = NETWORK;
let exact = false;
let view = false;
let constantDepth = 0;

/**
 * Salt's network decoding, `salt.payload.loads(buf)`: every str (and bin) is read as bytes,
 * then bytes that are valid UTF-8 become strings (map keys too) and others stay `Buffer`s.
 * Ints beyond `Number.MAX_SAFE_INTEGER` become bigints; ext 78 a {@link SaltDatetime}; ext 79
 * a {@link SaltConstant}; other ext types their body bytes. Maps become plain objects when
 * every key is a string and object order equals wire order, otherwise a `Map`.
 * Throws `SALT_ERR_BUS_DECODE` on malformed input.
 */
export function unpackNetwork(buf: Uint8Array, options?: UnpackOptions): unknown {
  return unpack(buf, NETWORK, options);
}

/**
 * Salt's IPC/disk decoding, `salt.payload.loads(buf, encoding='utf-8')`: str → string,
 * bin → `Buffer`, the same ext types. Like Salt, if any str is not valid UTF-8 the whole
 * message is read again with every str and bin as a `Buffer`.
 */
export function unpackIpc(buf: Uint8Array, options?: UnpackOptions): unknown {
  return unpack(buf, IPC, options);
}

function unpack(input: Uint8Array, m: number, options: UnpackOptions | undefined): unknown {
  if (!(input instanceof Uint8Array)) throw new SALT_ERR_BUS_DECODE('msgpack: input is not a byte array');
  b = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  p = 0;
  end = b.length;
  mode = m;
  exact = options?.exactFloats === true;
  view = options?.viewBytes === true;
  constantDepth = 0;
  try {
    let value: unknown;
    try {
      value = read(0);
    } catch (err) {
      if (err !== UTF8_FALLBACK) throw err;
      p = 0;
      mode = RAW;
      value = read(0);
    }
    if (p !== end) fail(`${end - p} bytes of trailing data at offset ${p}`);
    return value;
  } catch (err) {
    if (err instanceof SaltError) throw err;
    // A RangeError from a too-deep stack, or anything else unexpected, is still bad input.
    throw new SALT_ERR_BUS_DECODE('msgpack', { cause: err });
  } finally {
    b = EMPTY;
  }
}

function fail(why: string): never {
  throw new SALT_ERR_BUS_DECODE(`msgpack: ${why}`);
}

function need(n: number): void {
  if (p + n > end) fail(`truncated input (need ${n} bytes at offset ${p}, have ${end - p})`);
}

function u8(): number {
  need(1);
  return b[p++] as number;
}

function u16(): number {
  need(2);
  const v = ((b[p] as number) << 8) | (b[p + 1] as number);
  p += 2;
  return v;
}

function u32(): number {
  need(4);
  const v = b.readUInt32BE(p);
  p += 4;
  return v;
}

function u64(): number | bigint {
  need(8);
  const hi = b.readUInt32BE(p);
  const lo = b.readUInt32BE(p + 4);
  p += 8;
  if (hi < 0x200000) return hi * 4294967296 + lo;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

function i64(): number | bigint {
  need(8);
  const hi = b.readInt32BE(p);
  const lo = b.readUInt32BE(p + 4);
  p += 8;
  const v = hi * 4294967296 + lo;
  if (Number.isSafeInteger(v)) return v;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

function float(v: number): number | SaltFloat {
  return exact && Number.isInteger(v) ? new SaltFloat(v) : v;
}

function read(depth: number): unknown {
  if (p >= end) fail(`truncated input at offset ${p}`);
  const t = b[p++] as number;
  if (t < 0x80) return t;
  if (t < 0x90) return readMap(t & 0x0f, depth);
  if (t < 0xa0) return readArray(t & 0x0f, depth);
  if (t < 0xc0) {
    // fixstr, the most common value: short ones through the string cache, others inline.
    const len = t & 0x1f;
    if (len < 16 && mode !== RAW) {
      p--;
      return readShortStr(len);
    }
    if (p + len > end) need(len);
    p += len;
    if (mode !== RAW) {
      const text = decodeUtf8(b, p - len, len);
      if (text !== null) return text;
    }
    return readText(p - len, len);
  }
  if (t >= 0xe0) return t - 0x100;
  switch (t) {
    case 0xc0:
      return null;
    case 0xc2:
      return false;
    case 0xc3:
      return true;
    case 0xc4:
      return readBin(u8());
    case 0xc5:
      return readBin(u16());
    case 0xc6:
      return readBin(u32());
    case 0xc7:
      return readExt(u8());
    case 0xc8:
      return readExt(u16());
    case 0xc9:
      return readExt(u32());
    case 0xca: {
      need(4);
      const v = b.readFloatBE(p);
      p += 4;
      return float(v);
    }
    case 0xcb: {
      need(8);
      const v = b.readDoubleBE(p);
      p += 8;
      return float(v);
    }
    case 0xcc:
      return u8();
    case 0xcd:
      return u16();
    case 0xce:
      return u32();
    case 0xcf:
      return u64();
    case 0xd0: {
      const v = u8();
      return v < 0x80 ? v : v - 0x100;
    }
    case 0xd1: {
      const v = u16();
      return v < 0x8000 ? v : v - 0x10000;
    }
    case 0xd2:
      need(4);
      p += 4;
      return b.readInt32BE(p - 4);
    case 0xd3:
      return i64();
    case 0xd4:
      return readExt(1);
    case 0xd5:
      return readExt(2);
    case 0xd6:
      return readExt(4);
    case 0xd7:
      return readExt(8);
    case 0xd8:
      return readExt(16);
    case 0xd9:
      return readStr(u8());
    case 0xda:
      return readStr(u16());
    case 0xdb:
      return readStr(u32());
    case 0xdc:
      return readArray(u16(), depth);
    case 0xdd:
      return readArray(u32(), depth);
    case 0xde:
      return readMap(u16(), depth);
    case 0xdf:
      return readMap(u32(), depth);
    default:
      return fail(`reserved type byte 0x${t.toString(16)} at offset ${p - 1}`);
  }
}

function copy(s: number, len: number): Buffer {
  if (view && len >= 65536) return b.subarray(s, s + len);
  const r = Buffer.allocUnsafe(len);
  b.copy(r, 0, s, s + len);
  return r;
}

/** Bytes as the current mode reads them: text or bytes (network), text (ipc), bytes (raw). */
function readText(s: number, len: number): string | Buffer {
  if (mode === RAW) return copy(s, len);
  const text = decodeUtf8(b, s, len);
  if (text !== null) return text;
  if (mode === IPC) throw UTF8_FALLBACK;
  return copy(s, len);
}

function readStr(len: number): string | Buffer {
  need(len);
  p += len;
  return readText(p - len, len);
}

function readBin(len: number): string | Buffer {
  need(len);
  p += len;
  // On the network path Salt's decode_embedded_strs also turns UTF-8 bin into text.
  return mode === NETWORK ? readText(p - len, len) : copy(p - len, len);
}

function readExt(len: number): unknown {
  need(len + 1);
  const type = ((b[p] as number) << 24) >> 24;
  const s = p + 1;
  p = s + len;
  if (type === EXT_DATETIME) {
    const text = decodeUtf8(b, s, len);
    const dt = text === null ? undefined : SaltDatetime.parseWire(text);
    if (!dt) fail(`ext 78 is not a %Y%m%dT%H:%M:%S.%f datetime at offset ${s}`);
    return dt;
  }
  if (type === EXT_CONSTANT) return readConstant(s, len);
  // Salt's ext hook hands other types back as their bytes.
  return mode === NETWORK ? readText(s, len) : copy(s, len);
}

/** ext 79: body = msgpack([name, value]) read with raw=False. */
function readConstant(s: number, len: number): SaltConstant {
  if (constantDepth >= MAX_CONSTANT_NESTING) fail(`ext 79 nested deeper than ${MAX_CONSTANT_NESTING}`);
  const outer = { p, end, mode };
  p = s;
  end = s + len;
  mode = IPC;
  constantDepth++;
  try {
    const v = read(0);
    if (p !== end || !Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'string') {
      fail(`ext 79 body is not a [name, value] pair at offset ${s}`);
    }
    return new SaltConstant(v[0], v[1]);
  } catch (err) {
    if (err === UTF8_FALLBACK) fail(`ext 79 body holds invalid UTF-8 at offset ${s}`);
    throw err;
  } finally {
    constantDepth--;
    ({ p, end, mode } = outer);
  }
}

function readArray(n: number, depth: number): unknown[] {
  if (n > end - p) fail(`array of ${n} items exceeds the input at offset ${p}`);
  if (depth >= MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH}`);
  const a: unknown[] = [];
  for (let i = 0; i < n; i++) a.push(read(depth + 1));
  return a;
}

/** The array index a string key denotes (`"0"`, `"17"`), or -1: JS objects list those first. */
function indexKey(k: string): number {
  const c = k.charCodeAt(0);
  if (!(c >= 0x30 && c <= 0x39) || k.length > 10 || (c === 0x30 && k.length > 1)) return -1;
  for (let i = 1; i < k.length; i++) {
    const d = k.charCodeAt(i);
    if (d < 0x30 || d > 0x39) return -1;
  }
  const n = Number(k);
  return n < 4294967295 ? n : -1;
}

function isUnhashable(k: unknown): boolean {
  if (typeof k !== 'object' || k === null) return false;
  if (Array.isArray(k) || k instanceof Map) return true;
  const proto: unknown = Object.getPrototypeOf(k);
  return proto === Object.prototype || proto === null;
}

function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/**
 * Recently seen short strings (map keys mostly): reusing the string saves its allocation
 * and, for keys, its internalization. Slots are picked by a hash of the bytes and compared
 * byte by byte, so a collision only costs a miss.
 */
const KEY_CACHE_BITS = 12;
const keyBytes = new Uint8Array((1 << KEY_CACHE_BITS) * 16);
const keyLengths = new Int8Array(1 << KEY_CACHE_BITS).fill(-1);
const keyTexts: string[] = new Array<string>(1 << KEY_CACHE_BITS).fill('');

/** A fixstr of fewer than 16 bytes, through the cache (the type byte at `p` not yet consumed). */
function readShortStr(len: number): string | Buffer {
  const s = p + 1;
  if (s + len > end) {
    p = s;
    need(len); // throws: truncated
  }
  let h = len;
  for (let i = 0; i < len; i++) h = (Math.imul(h, 31) + (b[s + i] as number)) | 0;
  const slot = (h ^ (h >>> KEY_CACHE_BITS)) & ((1 << KEY_CACHE_BITS) - 1);
  const at = slot * 16;
  if (keyLengths[slot] === len) {
    let same = true;
    for (let i = 0; i < len; i++) {
      if (keyBytes[at + i] !== b[s + i]) {
        same = false;
        break;
      }
    }
    if (same) {
      p = s + len;
      return keyTexts[slot] as string;
    }
  }
  p = s;
  const text = readStr(len);
  if (typeof text === 'string') {
    for (let i = 0; i < len; i++) keyBytes[at + i] = b[s + i] as number;
    keyLengths[slot] = len;
    keyTexts[slot] = text;
  }
  return text;
}

function readMap(n: number, depth: number): Record<string, unknown> | Map<unknown, unknown> {
  if (n > (end - p) / 2) fail(`map of ${n} entries exceeds the input at offset ${p}`);
  if (depth >= MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH}`);
  const obj: Record<string, unknown> = {};
  let map: Map<unknown, unknown> | undefined;
  let lastIndex = -1;
  let named = false;
  for (let i = 0; i < n; i++) {
    const keyAt = p;
    const k = read(depth + 1);
    const v = read(depth + 1);
    if (map === undefined && typeof k === 'string') {
      const c = k.charCodeAt(0);
      if (!(c >= 0x30 && c <= 0x39)) {
        // The common case: a name. (`__proto__` must become an own property, not the prototype.)
        named = true;
        if (k === '__proto__') setOwn(obj, k, v);
        else obj[k] = v;
        continue;
      }
      const idx = indexKey(k);
      if (idx < 0) {
        named = true;
        obj[k] = v;
        continue;
      }
      if ((!named && idx > lastIndex) || Object.hasOwn(obj, k)) {
        if (idx > lastIndex) lastIndex = idx;
        obj[k] = v;
        continue;
      }
      // An index-like key after a name, or out of order: a JS object would move it first.
    } else if (isUnhashable(k)) {
      fail(`unhashable map key at offset ${keyAt}`);
    }
    map ??= new Map(Object.entries(obj));
    map.set(k, v);
  }
  return map ?? obj;
}
