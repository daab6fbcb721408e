/**
 * Finding where one msgpack value ends without decoding it: what a stream reader needs to
 * split back-to-back messages (Salt's IPC stream has no length prefix).
 */
import { SALT_ERR_BUS_DECODE } from '../errors.js';

/** Bytes that follow each fixed-size type byte 0xc0–0xdf (-1: reserved, -2: variable). */
const FIXED_TAIL: readonly number[] = [
  0,
  -1,
  0,
  0,
  -2,
  -2,
  -2,
  -2,
  -2,
  -2,
  4,
  8,
  1,
  2,
  4,
  8, // c0–cf
  1,
  2,
  4,
  8,
  2,
  3,
  5,
  9,
  17,
  -2,
  -2,
  -2,
  -2,
  -2,
  -2,
  -2, // d0–df
];

/**
 * The end offset of the msgpack value that starts at `start`, or, when `buf` stops before
 * the value is complete, `-need` where `need` is a length `buf` must reach before it can be
 * complete. Walks headers only (no recursion, no allocation), skipping str/bin/ext bodies.
 * Throws `SALT_ERR_BUS_DECODE` on the reserved type byte 0xc1.
 */
export function msgpackValueEnd(buf: Uint8Array, start = 0): number {
  const n = buf.length;
  let p = start;
  let pending = 1;
  while (pending > 0) {
    if (p >= n) return -(p + 1);
    const t = buf[p++] as number;
    pending--;
    if (t < 0x80 || t >= 0xe0) continue;
    if (t < 0x90) {
      pending += (t & 0x0f) * 2;
      continue;
    }
    if (t < 0xa0) {
      pending += t & 0x0f;
      continue;
    }
    if (t < 0xc0) {
      p += t & 0x1f;
      if (p > n) return -p;
      continue;
    }
    const tail = FIXED_TAIL[t - 0xc0] as number;
    if (tail >= 0) {
      p += tail;
      if (p > n) return -p;
      continue;
    }
    if (tail === -1) throw new SALT_ERR_BUS_DECODE(`msgpack: reserved type byte 0xc1 at offset ${p - 1}`);
    // Variable: the low bits pick the width of the length/count field.
    const width =
      t === 0xc4 || t === 0xc7 || t === 0xd9
        ? 1
        : t === 0xc5 || t === 0xc8 || t === 0xda || t === 0xdc || t === 0xde
          ? 2
          : 4;
    if (p + width > n) return -(p + width);
    let len = 0;
    for (let i = 0; i < width; i++) len = len * 256 + (buf[p + i] as number);
    p += width;
    if (t === 0xdc || t === 0xdd) {
      pending += len;
    } else if (t === 0xde || t === 0xdf) {
      pending += len * 2;
    } else {
      p += len + (t >= 0xc7 && t <= 0xc9 ? 1 : 0);
      if (p > n) return -p;
    }
  }
  return p;
}
