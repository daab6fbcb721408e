/**
 * Which minion a request comes from, read off the raw frame on the router thread without
 * decoding it, so that the worker pool sends every request of one minion to the same worker
 * thread. Each worker keeps per-minion caches (the accepted key, the session key, the parsed
 * RSA public key); with affinity a minion's entries live in one worker instead of all of them
 * (10,000 minions × 5 workers × ~7 KiB was ~350 MiB).
 *
 * The minion id is the `id` of the outer map (`aes` requests: `{enc, load, id, version}`) or of
 * the inner `load` map (`_auth`: `{enc: 'clear', load: {cmd: '_auth', id, ...}}`).
 */
import { msgpackValueEnd } from '../serial/index.js';

/** The count of the map that starts at `p` and the offset of its first key; undefined if not a map. */
function mapHeader(buf: Uint8Array, p: number): [number, number] | undefined {
  const t = buf[p];
  if (t === undefined) return undefined;
  if (t >= 0x80 && t <= 0x8f) return [t & 0x0f, p + 1];
  if (t === 0xde && p + 3 <= buf.length)
    return [((buf[p + 1] as number) << 8) | (buf[p + 2] as number), p + 3];
  return undefined;
}

/** The str that starts at `p` (fixstr, str8, str16) and the offset after it; undefined otherwise. */
function readStr(buf: Uint8Array, p: number): [string, number] | undefined {
  const t = buf[p];
  if (t === undefined) return undefined;
  let len: number;
  let at: number;
  if (t >= 0xa0 && t <= 0xbf) {
    len = t & 0x1f;
    at = p + 1;
  } else if (t === 0xd9 && p + 2 <= buf.length) {
    len = buf[p + 1] as number;
    at = p + 2;
  } else if (t === 0xda && p + 3 <= buf.length) {
    len = ((buf[p + 1] as number) << 8) | (buf[p + 2] as number);
    at = p + 3;
  } else return undefined;
  if (at + len > buf.length) return undefined;
  return [Buffer.from(buf.buffer, buf.byteOffset + at, len).toString('utf8'), at + len];
}

/** Finds `id` in the map at `p`; descends once into a `load` map. */
function findId(buf: Uint8Array, p: number, depth: number): string | undefined {
  const head = mapHeader(buf, p);
  if (!head) return undefined;
  let [count, at] = head;
  let inner: number | undefined;
  while (count-- > 0) {
    const key = readStr(buf, at);
    const keyEnd = key ? key[1] : msgpackValueEnd(buf, at);
    if (keyEnd < 0) return undefined;
    if (key?.[0] === 'id') {
      const value = readStr(buf, keyEnd);
      if (value) return value[0];
    } else if (key?.[0] === 'load' && depth === 0) inner = keyEnd;
    at = msgpackValueEnd(buf, keyEnd);
    if (at < 0) return undefined;
  }
  return inner === undefined ? undefined : findId(buf, inner, depth + 1);
}

/** The minion id a request frame carries, or undefined (user commands, undecodable frames). */
export function requestMinionId(frame: Uint8Array): string | undefined {
  try {
    return findId(frame, 0, 0);
  } catch {
    return undefined;
  }
}

/** A stable 32-bit hash (FNV-1a over UTF-16 code units) for picking a worker. */
export function affinityHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
