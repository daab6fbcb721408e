/**
 * Salt's msgpack packer (`salt.payload.dumps`), written by hand because Salt's network form
 * (`use_bin_type=False`) needs the old "raw" rules no msgpack library for JS offers: text and
 * bytes both become str, and str 8 is never written.
 */
import { SALT_ERR_BUS_ENCODE } from '../errors.js';
import { EXT_CONSTANT, EXT_DATETIME, SaltConstant, SaltDatetime, SaltFloat } from './salt-types.js';
import { encodeUtf8 } from './utf8.js';

/** Nesting deeper than this is refused (msgpack-python's packer stops at 511 too). */
const MAX_DEPTH = 511;
/**
 * Strings shorter than this are encoded by a JS loop, longer ones by `Buffer#write`. (Above
 * about 24 units the loop got slow in V8 once it had seen strings of several representations.)
 */
const JS_STRING_LIMIT = 24;
/**
 * Results are cut from shared slabs, like Node's own Buffer pool: no copy per call. A slab
 * with less than MIN_ROOM bytes left is retired; one that grew past KEEP_LIMIT for a large
 * message is retired after that call.
 */
const SLAB_SIZE = 64 * 1024;
const MIN_ROOM = 4096;
const KEEP_LIMIT = 1 << 20;
const GROW_STEP = 32 * 1024 * 1024;
const TWO_32 = 4294967296;
const TWO_63 = 2 ** 63;
const TWO_64 = 2 ** 64;
const U64_MAX = 0xffff_ffff_ffff_ffffn;
const I64_MIN = -0x8000_0000_0000_0000n;
const I32_MIN = -0x8000_0000n;
const U32_MAX = 0xffff_ffffn;

// Encoder state. Packing is synchronous; the only re-entry is the ext 79 body (see pack()).
let out: Buffer = Buffer.allocUnsafeSlow(SLAB_SIZE);
/** Where the message being packed starts in `out`. */
let start = 0;
let pos = 0;
let binType = false;
let busy = false;
/** How many ext 79 bodies are being packed inside each other (a cycle through a constant's value). */
let nested = 0;
const MAX_NESTED = 8;

/**
 * Salt's network form, `salt.payload.dumps(value)` (`use_bin_type=False`): JS strings and
 * `Buffer`/`Uint8Array` both become msgpack str; ints take the smallest format (uint formats
 * for non-negative ones); other numbers float 64; bigints outside int64/uint64 become
 * decimal strings; `Date`/{@link SaltDatetime} ext 78; {@link SaltConstant} ext 79;
 * arrays and `Set`s arrays; plain objects and `Map`s maps in insertion order. Object
 * properties whose value is `undefined` are left out (as `JSON.stringify` does); `undefined`
 * elsewhere is nil. Throws `SALT_ERR_BUS_ENCODE` for functions, symbols and cycles.
 * The result may share its `ArrayBuffer` with other results (as pooled Node Buffers do).
 */
export function packNetwork(value: unknown): Buffer {
  return pack(value, false);
}

/**
 * Salt's IPC/disk form, `salt.payload.dumps(value, use_bin_type=True)`: the same as
 * {@link packNetwork} except that `Buffer`/`Uint8Array` become msgpack bin and str 8 is used.
 */
export function packIpc(value: unknown): Buffer {
  return pack(value, true);
}

function pack(value: unknown, bin: boolean): Buffer {
  if (busy) {
    // Re-entered while packing an ext 79 body: run on a private buffer, then restore.
    if (nested >= MAX_NESTED)
      throw new SALT_ERR_BUS_ENCODE(`Salt constants nested deeper than ${MAX_NESTED}`);
    const saved = { out, start, pos, binType };
    nested++;
    out = Buffer.allocUnsafe(256);
    start = 0;
    pos = 0;
    binType = bin;
    try {
      encode(value, 0);
      return Buffer.from(out.subarray(0, pos));
    } finally {
      nested--;
      ({ out, start, pos, binType } = saved);
    }
  }
  busy = true;
  binType = bin;
  if (out.length - start < MIN_ROOM) {
    out = Buffer.allocUnsafeSlow(SLAB_SIZE);
    start = 0;
  }
  pos = start;
  try {
    encode(value, 0);
    const result = out.subarray(start, pos);
    start = pos + 7 - ((pos + 7) % 8);
    // the large slab now belongs to the result alone: not kept alive until the next call
    if (out.length > KEEP_LIMIT) [out, start] = [Buffer.allocUnsafeSlow(SLAB_SIZE), 0];
    return result;
  } finally {
    busy = false;
  }
}

function ensure(n: number): void {
  if (pos + n <= out.length) return;
  const used = pos - start;
  // small writes double the room (up to GROW_STEP more); a write larger than the message so far
  // (a big string) gets its size and a slab: a 50 MB string costs 50 MB, not a 100 MB slab
  const room = n > used ? SLAB_SIZE : Math.min(Math.max(used, SLAB_SIZE), GROW_STEP);
  const grown = Buffer.allocUnsafeSlow(used + n + room);
  out.copy(grown, 0, start, pos);
  out = grown;
  start = 0;
  pos = used;
}

function encode(v: unknown, depth: number): void {
  switch (typeof v) {
    case 'string':
      writeString(v);
      return;
    case 'number':
      writeNumber(v);
      return;
    case 'boolean':
      ensure(1);
      out[pos++] = v ? 0xc3 : 0xc2;
      return;
    case 'undefined':
      ensure(1);
      out[pos++] = 0xc0;
      return;
    case 'bigint':
      writeBigInt(v);
      return;
    case 'object':
      if (v === null) {
        ensure(1);
        out[pos++] = 0xc0;
        return;
      }
      if (depth >= MAX_DEPTH) throw new SALT_ERR_BUS_ENCODE(`a value nested deeper than ${MAX_DEPTH} levels`);
      writeObjectLike(v, depth + 1);
      return;
    default:
      throw new SALT_ERR_BUS_ENCODE(`a value of type ${typeof v}`);
  }
}

/** Arrays and plain objects, the bulk of Salt's data, first; everything else in writeOther(). */
function writeObjectLike(v: object, depth: number): void {
  if (Array.isArray(v)) {
    writeArrayHeader(v.length);
    for (let i = 0; i < v.length; i++) encode(v[i], depth);
  } else if (isPlainRecord(v)) {
    writeRecord(v, depth);
  } else {
    writeOther(v, depth);
  }
}

function writeOther(v: object, depth: number): void {
  if (v instanceof Uint8Array) {
    writeBytes(v);
  } else if (v instanceof Map) {
    writeMapHeader(v.size);
    for (const [key, value] of v) {
      encode(key, depth);
      encode(value, depth);
    }
  } else if (v instanceof Set) {
    writeArrayHeader(v.size);
    for (const item of v) encode(item, depth);
  } else if (v instanceof SaltFloat) {
    writeFloat(v.value);
  } else if (v instanceof SaltDatetime || v instanceof Date) {
    const dt = v instanceof Date ? SaltDatetime.fromDate(v) : v;
    if (!dt) throw new SALT_ERR_BUS_ENCODE('an invalid Date');
    writeExt(EXT_DATETIME, Buffer.from(dt.toWire(), 'latin1'));
  } else if (v instanceof SaltConstant) {
    writeExt(EXT_CONSTANT, packIpc([v.name, v.value]));
  } else if (ArrayBuffer.isView(v)) {
    writeBytes(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  } else if (v instanceof ArrayBuffer) {
    writeBytes(new Uint8Array(v));
  } else {
    const toJSON: unknown = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') encode(toJSON.call(v), depth);
    else writeRecord(v as Record<string, unknown>, depth);
  }
}

function isPlainRecord(v: object): v is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function writeRecord(o: Record<string, unknown>, depth: number): void {
  const keys = Object.keys(o);
  const n = keys.length;
  const reserved = mapHeaderSize(n);
  ensure(reserved);
  // Kept relative to `start`: ensure() may move the message to a larger buffer meanwhile.
  const headerAt = pos - start;
  pos += reserved;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const key = keys[i] as string;
    const value = o[key];
    if (value === undefined) continue;
    writeString(key);
    encode(value, depth);
    count++;
  }
  const size = mapHeaderSize(count);
  const header = start + headerAt;
  if (size !== reserved) {
    // Some values were undefined and the smaller count needs a shorter header.
    out.copyWithin(header + size, header + reserved, pos);
    pos -= reserved - size;
  }
  const endAt = pos;
  pos = header;
  writeMapHeader(count);
  pos = endAt;
}

function mapHeaderSize(n: number): number {
  return n < 16 ? 1 : n < 0x10000 ? 3 : 5;
}

function writeMapHeader(n: number): void {
  ensure(5);
  if (n < 16) {
    out[pos++] = 0x80 | n;
  } else if (n < 0x10000) {
    out[pos++] = 0xde;
    out[pos++] = n >>> 8;
    out[pos++] = n & 0xff;
  } else {
    out[pos++] = 0xdf;
    out.writeUInt32BE(n, pos);
    pos += 4;
  }
}

function writeArrayHeader(n: number): void {
  ensure(5);
  if (n < 16) {
    out[pos++] = 0x90 | n;
  } else if (n < 0x10000) {
    out[pos++] = 0xdc;
    out[pos++] = n >>> 8;
    out[pos++] = n & 0xff;
  } else {
    out[pos++] = 0xdd;
    out.writeUInt32BE(n, pos);
    pos += 4;
  }
}

/** Size of the str header for `len` bytes: the network form has no str 8. */
function strHeaderSize(len: number): number {
  if (len < 32) return 1;
  if (binType && len < 0x100) return 2;
  return len < 0x10000 ? 3 : 5;
}

function writeStrHeaderAt(at: number, len: number): void {
  if (len < 32) {
    out[at] = 0xa0 | len;
  } else if (binType && len < 0x100) {
    out[at] = 0xd9;
    out[at + 1] = len;
  } else if (len < 0x10000) {
    out[at] = 0xda;
    out[at + 1] = len >>> 8;
    out[at + 2] = len & 0xff;
  } else {
    if (len > 0xffffffff) throw new SALT_ERR_BUS_ENCODE('a string longer than 4 GiB');
    out[at] = 0xdb;
    out.writeUInt32BE(len, at + 1);
  }
}

function writeString(s: string): void {
  const n = s.length;
  if (n < 11) {
    // At most 30 bytes: always a fixstr, so the header can be written after the text.
    if (pos + 31 > out.length) ensure(31);
    const len = encodeUtf8(s, out, pos + 1);
    out[pos] = 0xa0 | len;
    pos += 1 + len;
  } else if (n < JS_STRING_LIMIT) {
    // Reserve the header for the worst case (3 bytes per UTF-16 unit), shift if it was too big.
    const reserved = strHeaderSize(n * 3);
    ensure(reserved + n * 3);
    const len = encodeUtf8(s, out, pos + reserved);
    finishString(reserved, len);
  } else {
    writeLongString(s);
  }
}

/** Kept apart from writeString() so that the short-string paths stay small enough to inline. */
function writeLongString(s: string): void {
  const n = s.length;
  // Huge text is measured rather than reserving 3 bytes per UTF-16 unit.
  const maxBytes = n > 0x100000 ? Buffer.byteLength(s, 'utf8') : n * 3;
  const reserved = strHeaderSize(maxBytes);
  ensure(reserved + maxBytes);
  const len = out.write(s, pos + reserved, 'utf8');
  finishString(reserved, len);
}

/** The text is at `pos + reserved`; writes the header it needs and moves the text next to it. */
function finishString(reserved: number, len: number): void {
  const size = strHeaderSize(len);
  if (size !== reserved) out.copyWithin(pos + size, pos + reserved, pos + reserved + len);
  writeStrHeaderAt(pos, len);
  pos += size + len;
}

function writeBytes(b: Uint8Array): void {
  const len = b.byteLength;
  ensure(5 + len);
  if (binType) {
    if (len < 0x100) {
      out[pos++] = 0xc4;
      out[pos++] = len;
    } else if (len < 0x10000) {
      out[pos++] = 0xc5;
      out[pos++] = len >>> 8;
      out[pos++] = len & 0xff;
    } else {
      if (len > 0xffffffff) throw new SALT_ERR_BUS_ENCODE('a byte string longer than 4 GiB');
      out[pos++] = 0xc6;
      out.writeUInt32BE(len, pos);
      pos += 4;
    }
  } else {
    writeStrHeaderAt(pos, len);
    pos += strHeaderSize(len);
  }
  copyInto(b, pos);
  pos += len;
}

function writeNumber(v: number): void {
  if (!Number.isInteger(v) || Object.is(v, -0)) {
    writeFloat(v);
    return;
  }
  ensure(9);
  if (v >= 0) {
    if (v < 0x80) {
      out[pos++] = v;
    } else if (v < 0x100) {
      out[pos++] = 0xcc;
      out[pos++] = v;
    } else if (v < 0x10000) {
      out[pos++] = 0xcd;
      out[pos++] = v >>> 8;
      out[pos++] = v & 0xff;
    } else if (v < TWO_32) {
      out[pos++] = 0xce;
      out.writeUInt32BE(v, pos);
      pos += 4;
    } else if (v < TWO_64) {
      const hi = Math.floor(v / TWO_32);
      out[pos++] = 0xcf;
      out.writeUInt32BE(hi, pos);
      out.writeUInt32BE(v - hi * TWO_32, pos + 4);
      pos += 8;
    } else {
      writeFloat(v);
    }
  } else if (v >= -32) {
    out[pos++] = v & 0xff;
  } else if (v >= -0x80) {
    out[pos++] = 0xd0;
    out[pos++] = v & 0xff;
  } else if (v >= -0x8000) {
    out[pos++] = 0xd1;
    out[pos++] = (v >> 8) & 0xff;
    out[pos++] = v & 0xff;
  } else if (v >= -0x80000000) {
    out[pos++] = 0xd2;
    out.writeInt32BE(v, pos);
    pos += 4;
  } else if (v >= -TWO_63) {
    const hi = Math.floor(v / TWO_32);
    out[pos++] = 0xd3;
    out.writeInt32BE(hi, pos);
    out.writeUInt32BE(v - hi * TWO_32, pos + 4);
    pos += 8;
  } else {
    writeFloat(v);
  }
}

function writeBigInt(v: bigint): void {
  if (v >= 0n) {
    if (v <= U32_MAX) {
      writeNumber(Number(v));
      return;
    }
    if (v <= U64_MAX) {
      ensure(9);
      out[pos++] = 0xcf;
      out.writeBigUInt64BE(v, pos);
      pos += 8;
      return;
    }
  } else {
    if (v >= I32_MIN) {
      writeNumber(Number(v));
      return;
    }
    if (v >= I64_MIN) {
      ensure(9);
      out[pos++] = 0xd3;
      out.writeBigInt64BE(v, pos);
      pos += 8;
      return;
    }
  }
  // Salt's ext encoder turns ints msgpack cannot hold into their decimal text.
  writeString(v.toString());
}

function writeFloat(v: number): void {
  ensure(9);
  out[pos++] = 0xcb;
  out.writeDoubleBE(v, pos);
  pos += 8;
}

function writeExt(type: number, body: Uint8Array): void {
  const len = body.byteLength;
  ensure(6 + len);
  if (len === 1 || len === 2 || len === 4 || len === 8 || len === 16) {
    out[pos++] = len === 1 ? 0xd4 : len === 2 ? 0xd5 : len === 4 ? 0xd6 : len === 8 ? 0xd7 : 0xd8;
  } else if (len < 0x100) {
    out[pos++] = 0xc7;
    out[pos++] = len;
  } else if (len < 0x10000) {
    out[pos++] = 0xc8;
    out[pos++] = len >>> 8;
    out[pos++] = len & 0xff;
  } else {
    out[pos++] = 0xc9;
    out.writeUInt32BE(len, pos);
    pos += 4;
  }
  out[pos++] = type & 0xff;
  copyInto(body, pos);
  pos += len;
}

/**
 * Copies bytes into `out`. (Calling `out.set()` here made V8 run the whole encoder about
 * half as fast, even for messages without bytes, so: a loop for small inputs, else Buffer#copy.)
 */
function copyInto(src: Uint8Array, at: number): void {
  const len = src.byteLength;
  if (len <= 64) {
    for (let i = 0; i < len; i++) out[at + i] = src[i] as number;
    return;
  }
  const from = Buffer.isBuffer(src) ? src : Buffer.from(src.buffer, src.byteOffset, len);
  from.copy(out, at);
}
