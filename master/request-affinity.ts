/**
 * Which minion a request comes from, read off the raw frame on the router thread without
 * decoding it, so that the worker pool sends every request of one minion to the same worker
 * thread. Each worker keeps per-minion caches (the accepted key, the session key, the parsed
 * RSA public key); with affinity a minion's entries live in one worker instead of all of them
 * (10,000 minions × 5 workers × ~7 KiB was ~350 MiB).
 *
 * The minion id is the `id` of the outer map (`aes` requests: `{enc, load, id, version}`) or of
 * the inner `load` map (`_auth`: `{enc: 'clear', load: {cmd: '_auth', id, ...}}`). The outer
 * `enc` tells the request server which requests its router thread may handle itself
 * (children/request-server.ts).
 */
import { msgpackValueEnd } from '../kernel/serial/index.js';

/** The count of the map that starts at `p` and the offset of its first key; undefined if not a map. */
function mapHeader(buf: Uint8Array, p: number): [number, number] | undefined {
  const t = buf[p];
  if (t === undefined) return undefined;
  if (t >= 0x80 && t <= 0x8f) return [t & 0x0f, p + 1];
  if (t === 0xde && p + 3 <= buf.length)
    return [((buf[p + 1] as number) << 8) | (buf[p + 2] as number), p + 3];
  return undefined;
}

/** The str that starts at `p` (fixstr, str8, str16): where its bytes start and end; undefined otherwise. */
function strSpan(buf: Uint8Array, p: number): [number, number] | undefined {
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
  return [at, at + len];
}

/** The str that starts at `p` as text; undefined if it is not a str. */
function readStr(buf: Uint8Array, p: number): string | undefined {
  const span = strSpan(buf, p);
  if (!span) return undefined;
  return Buffer.isBuffer(buf)
    ? buf.toString('utf8', span[0], span[1])
    : Buffer.from(buf.buffer, buf.byteOffset + span[0], span[1] - span[0]).toString('utf8');
}

/** True when bytes `at..end` of `buf` spell `key` (ASCII). */
function spells(buf: Uint8Array, at: number, end: number, key: string): boolean {
  if (end - at !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (buf[at + i] !== key.charCodeAt(i)) return false;
  return true;
}

/** What the router thread learns of a request without decoding it. */
export interface RequestPeek {
  /** The minion id (outer `id`, else the `load` map's); undefined for user commands. */
  id: string | undefined;
  /** The outer map says `enc: 'aes'` and carries the id: a signed-in minion's encrypted request. */
  aes: boolean;
  /** A user's `publish` targeting by glob or list ({@link isKeyListPublish}); set only then. */
  publish?: true;
}

/**
 * A `publish` whose targeting reads nothing but the accepted key list (glob, list, or no
 * `tgt_type`, which is glob): light enough for the request server's router thread
 * (children/request-server.ts). Grain, pillar and compound targeting may read the minion data
 * cache from disk, and stay on the worker threads.
 */
export function isKeyListPublish(cmd: unknown, tgtType: unknown): boolean {
  return cmd === 'publish' && (tgtType === undefined || tgtType === 'glob' || tgtType === 'list');
}

const NOT_A_REQUEST: RequestPeek = { id: undefined, aes: false };

/**
 * Where the values of the `keys` wanted sit in the map at `p` (str keys only, ASCII names; the
 * first of each wins), in the order of `keys`; undefined if not a map. Nothing is decoded: keys
 * are compared byte by byte, as this runs for every request on the router thread.
 */
function mapValues(
  buf: Uint8Array,
  p: number,
  keys: readonly string[],
): Array<number | undefined> | undefined {
  const head = mapHeader(buf, p);
  if (!head) return undefined;
  let [count, at] = head;
  const found: Array<number | undefined> = new Array(keys.length).fill(undefined);
  while (count-- > 0) {
    const span = strSpan(buf, at);
    const keyEnd = span ? span[1] : msgpackValueEnd(buf, at);
    if (keyEnd < 0) return undefined;
    if (span) {
      for (let k = 0; k < keys.length; k++) {
        if (found[k] === undefined && spells(buf, span[0], span[1], keys[k] as string)) found[k] = keyEnd;
      }
    }
    at = msgpackValueEnd(buf, keyEnd);
    if (at < 0) return undefined;
  }
  return found;
}

/** The outer map's `id`, `enc` and `load` (in this order). */
const OUTER_KEYS = ['id', 'enc', 'load'] as const;
const INNER_KEYS = ['id', 'cmd', 'tgt_type'] as const;

function peekMap(buf: Uint8Array): RequestPeek {
  const outer = mapValues(buf, 0, OUTER_KEYS);
  if (!outer) return NOT_A_REQUEST;
  const [idAt, encAt, loadAt] = outer;
  const id = idAt === undefined ? undefined : readStr(buf, idAt);
  if (id !== undefined) {
    const enc = encAt === undefined ? undefined : strSpan(buf, encAt);
    return { id, aes: enc !== undefined && spells(buf, enc[0], enc[1], 'aes') };
  }
  const inner = loadAt === undefined ? undefined : mapValues(buf, loadAt, INNER_KEYS);
  const [innerId, cmdAt, tgtTypeAt] = inner ?? [];
  const peek: RequestPeek = { id: innerId === undefined ? undefined : readStr(buf, innerId), aes: false };
  if (cmdAt === undefined || peek.id !== undefined) return peek;
  const tgtType = tgtTypeAt === undefined ? undefined : (readStr(buf, tgtTypeAt) ?? null);
  if (isKeyListPublish(readStr(buf, cmdAt), tgtType)) peek.publish = true;
  return peek;
}

/** The minion id and encryption of a request frame; a frame that is not a map gives neither. */
export function peekRequest(frame: Uint8Array): RequestPeek {
  try {
    return peekMap(frame);
  } catch {
    return NOT_A_REQUEST;
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
