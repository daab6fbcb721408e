/**
 * A swarm worker opens each distinct publish once for all its minions (`--no-share-publishes`
 * turns this off). Every simulated minion still receives the publish over its own SUB
 * connection; what is shared is the work a real fleet does on each minion's own host with the
 * same bytes, the same master AES key and the same result: the envelope's msgpack decoding, the
 * optional signature check (`sign_pub_messages`), the HMAC check and AES decryption, and the
 * load's msgpack decoding. What stays each minion's own: the publish serial (replay) check
 * against the last serial that minion accepted (Salt's `Crypticle.loads`), its targeting, its
 * job and its return, encrypted with its own session key over its own REQ connection. The
 * master sees exactly the traffic it sees without sharing.
 *
 * A frame is recognised by its bytes (a copy is kept) and the AES key it was opened with: after
 * a key rotation a minion still holding the old key opens the frame for itself (and fails, and
 * signs in again, as without sharing).
 */
import type { Crypticle } from '../../kernel/crypt/crypticle.js';
import { unpackNetwork } from '../../kernel/serial/index.js';
import { isStringMap } from '../../kernel/serial/is-string-map.js';
import { type DropReason, openEnvelope } from '../../minion/publish-decoder.js';

/** A publish serial as msgpack decodes it. */
export type Serial = number | bigint;

/**
 * One frame opened for every minion: the load (frozen: minions share it) or why it is dropped,
 * and the serial it carried (a minion that accepts it remembers it, even for a load it drops,
 * as `Crypticle.loads` does before the load's fields are checked).
 */
export type OpenedPublish = (
  | { ok: true; load: Readonly<Record<string, unknown>> }
  | { ok: false; reason: DropReason }
) & { serial?: Serial };

const PICKLE_PAD = Buffer.from('pickle::', 'ascii');
/** Publishes kept: the minions of one worker take one publish at a time, a few while jobs overlap. */
const KEPT = 4;

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/**
 * Opens a publish's encrypted load as `Crypticle.loads` and `decryptPublish` do, except that the
 * serial is returned, not checked: it is each minion's ({@link acceptSerial}).
 */
export function openPublish(frame: Uint8Array, aes: Crypticle, verifyWith?: string): OpenedPublish {
  const env = openEnvelope(frame, verifyWith);
  if (!env.ok) return env;
  let payload: unknown;
  try {
    const plain = aes.decrypt(env.enc);
    if (!plain.subarray(0, PICKLE_PAD.length).equals(PICKLE_PAD))
      return { ok: false, reason: 'replayed or not a publish' };
    payload = unpackNetwork(plain.subarray(PICKLE_PAD.length), { exactFloats: true });
  } catch {
    return { ok: false, reason: 'does not decrypt' };
  }
  if (!isStringMap(payload)) return { ok: false, reason: 'replayed or not a publish' };
  let serial: unknown;
  if (Object.hasOwn(payload, 'serial')) {
    serial = typeof payload.serial === 'boolean' ? Number(payload.serial) : payload.serial;
    delete payload.serial;
    if ((typeof serial !== 'number' && typeof serial !== 'bigint') || Number.isNaN(serial))
      return { ok: false, reason: 'replayed or not a publish' };
  }
  const s = serial as Serial | undefined;
  if (Object.keys(payload).length === 0) return { ok: false, reason: 'replayed or not a publish', serial: s };
  if (!('tgt' in payload) || !('jid' in payload) || !('fun' in payload) || !('arg' in payload))
    return { ok: false, reason: 'missing tgt, jid, fun or arg', serial: s };
  return { ok: true, load: deepFreeze(payload), serial: s };
}

/**
 * A minion's own replay check (Salt's `Crypticle.loads`): a publish without a serial passes; one
 * with a serial passes only above the last one the minion accepted. The new last serial, or
 * `undefined` for a replay.
 */
export function acceptSerial(serial: Serial | undefined, last: Serial): Serial | undefined {
  if (serial === undefined) return last;
  return serial > last ? serial : undefined;
}

/** The publishes a worker's minions have opened lately, by frame bytes and AES key. */
export class SharedPublishes {
  readonly #kept: { frame: Buffer; key: string; verifyWith: string | undefined; opened: OpenedPublish }[] =
    [];
  /** Frames opened, and frames a minion found opened already. */
  opened = 0;
  reused = 0;

  open(frame: Buffer, aes: Crypticle, verifyWith?: string): OpenedPublish {
    const key = aes.keyString;
    for (const k of this.#kept)
      if (k.key === key && k.verifyWith === verifyWith && k.frame.equals(frame)) {
        this.reused++;
        return k.opened;
      }
    const opened = openPublish(frame, aes, verifyWith);
    this.opened++;
    // a copy: the socket's read buffer may be reused
    this.#kept.unshift({ frame: Buffer.from(frame), key, verifyWith, opened });
    if (this.#kept.length > KEPT) this.#kept.pop();
    return opened;
  }
}
