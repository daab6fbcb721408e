/**
 * Turns one frame from the master's PUB socket into a publish load (PROTOCOL.md §6, minion
 * receive): msgpack envelope, optional signature check, AES decryption with replay
 * protection (the serial), required fields. Never throws: a frame that is not a valid publish
 * gives the reason it was dropped.
 */
import type { Crypticle } from '../kernel/crypt/crypticle.js';
import { rsaVerify } from '../kernel/crypt/rsa.js';
import { asBytes } from '../kernel/serial/as-bytes.js';
import { unpackNetwork } from '../kernel/serial/index.js';
import { isStringMap } from '../kernel/serial/is-string-map.js';

export type DropReason =
  | 'undecodable'
  | 'not an aes envelope'
  | 'bad signature'
  | 'does not decrypt'
  | 'replayed or not a publish'
  | 'missing tgt, jid, fun or arg';

export type DecodedPublish = { ok: true; load: Record<string, unknown> } | { ok: false; reason: DropReason };

/** The encrypted load of a publish frame, after the envelope and signature checks. */
export function openEnvelope(
  frame: Uint8Array,
  verifyWith?: string,
): { ok: true; enc: Buffer } | { ok: false; reason: DropReason } {
  let env: unknown;
  try {
    env = unpackNetwork(frame);
  } catch {
    return { ok: false, reason: 'undecodable' };
  }
  if (!isStringMap(env) || env.enc !== 'aes') return { ok: false, reason: 'not an aes envelope' };
  const enc = asBytes(env.load);
  if (!enc) return { ok: false, reason: 'not an aes envelope' };
  if (verifyWith) {
    const sig = asBytes(env.sig);
    if (!sig || !rsaVerify(verifyWith, enc, sig)) return { ok: false, reason: 'bad signature' };
  }
  return { ok: true, enc };
}

/** Decrypts an encrypted publish load with the master AES Crypticle (which drops replays). */
export function decryptPublish(enc: Buffer, aes: Crypticle): DecodedPublish {
  let load: unknown;
  try {
    load = aes.loads(enc);
  } catch {
    return { ok: false, reason: 'does not decrypt' };
  }
  if (!isStringMap(load) || Object.keys(load).length === 0)
    return { ok: false, reason: 'replayed or not a publish' };
  if (!('tgt' in load) || !('jid' in load) || !('fun' in load) || !('arg' in load)) {
    return { ok: false, reason: 'missing tgt, jid, fun or arg' };
  }
  return { ok: true, load };
}
