/**
 * UTF-8 for the msgpack codec: short strings are converted in JS (cheaper than a native call),
 * long ones natively; decoding is strict, as Python's is.
 */
import { isUtf8 } from 'node:buffer';

/** Strings up to this many bytes are decoded in JS; longer ones natively. */
const SHORT_STRING = 24;

/**
 * Bytes `[s, s+len)` of `b` as text, or `null` when they are not valid UTF-8 by Python's
 * strict rules (no overlong forms, no surrogates, nothing above U+10FFFF, no cut sequences;
 * a BOM is kept as U+FEFF).
 */
export function decodeUtf8(b: Buffer, s: number, len: number): string | null {
  if (len > SHORT_STRING) {
    if (!isUtf8(b.subarray(s, s + len))) return null;
    return b.toString('utf8', s, s + len);
  }
  // Collect UTF-16 units and make the string in one call: concatenating char by char would
  // build cons strings, which every later consumer (the encoder included) reads more slowly.
  const units: number[] = [];
  const e = s + len;
  let i = s;
  while (i < e) {
    const c = b[i++] as number;
    if (c < 0x80) {
      units.push(c);
    } else if (c < 0xc2) {
      return null;
    } else if (c < 0xe0) {
      if (i >= e) return null;
      const c1 = b[i++] as number;
      if ((c1 & 0xc0) !== 0x80) return null;
      units.push(((c & 0x1f) << 6) | (c1 & 0x3f));
    } else if (c < 0xf0) {
      if (i + 1 >= e) return null;
      const c1 = b[i++] as number;
      const c2 = b[i++] as number;
      if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80) return null;
      if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 >= 0xa0)) return null;
      units.push(((c & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f));
    } else if (c < 0xf5) {
      if (i + 2 >= e) return null;
      const c1 = b[i++] as number;
      const c2 = b[i++] as number;
      const c3 = b[i++] as number;
      if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80 || (c3 & 0xc0) !== 0x80) return null;
      if ((c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 >= 0x90)) return null;
      const cp = (((c & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f)) - 0x10000;
      units.push(0xd800 | (cp >> 10), 0xdc00 | (cp & 0x3ff));
    } else {
      return null;
    }
  }
  return String.fromCharCode(...units);
}

/**
 * Writes `s` as UTF-8 into `o` at `at` and returns the byte count; `o` must have room for
 * `3 * s.length` bytes. Lone surrogates become U+FFFD, as with `Buffer#write`. Meant for short
 * strings, where a JS loop beats the native call.
 */
export function encodeUtf8(s: string, o: Buffer, at: number): number {
  let p = at;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      o[p++] = c;
    } else if (c < 0x800) {
      o[p++] = 0xc0 | (c >> 6);
      o[p++] = 0x80 | (c & 0x3f);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          o[p++] = 0xf0 | (c >> 18);
          o[p++] = 0x80 | ((c >> 12) & 0x3f);
          o[p++] = 0x80 | ((c >> 6) & 0x3f);
          o[p++] = 0x80 | (c & 0x3f);
          continue;
        }
        c = 0xfffd;
      }
      o[p++] = 0xe0 | (c >> 12);
      o[p++] = 0x80 | ((c >> 6) & 0x3f);
      o[p++] = 0x80 | (c & 0x3f);
    }
  }
  return p - at;
}
