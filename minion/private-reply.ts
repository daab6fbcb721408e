/**
 * Opens Salt's `send_private` reply (the `_pillar` answer, PROTOCOL.md §3): the per-reply key
 * is OAEP-encrypted to this minion, the payload is encrypted with it and signed by the master;
 * the signed data must carry the same key and this request's nonce.
 */
import { Crypticle } from '../kernel/crypt/crypticle.js';
import { oaepDecrypt, rsaVerify } from '../kernel/crypt/rsa.js';
import { SALT_ERR_AUTH_MASTER_KEY } from '../kernel/errors.js';
import { asBytes } from '../kernel/serial/as-bytes.js';
import { unpackNetwork } from '../kernel/serial/index.js';
import { isStringMap } from '../kernel/serial/is-string-map.js';

/** The value under `dictkey` of a private reply; throws when any check fails. */
export function openPrivateReply(
  reply: unknown,
  dictkey: string,
  opts: { minionPem: string; masterPub: string; nonce: string },
): unknown {
  const fail = (why: string): never => {
    throw new SALT_ERR_AUTH_MASTER_KEY(`private reply rejected: ${why}`);
  };
  if (!isStringMap(reply)) return fail('not a map');
  const key = asBytes(reply.key);
  const payload = asBytes(reply[dictkey]);
  if (!key || !payload) return fail(`no key or ${dictkey}`);
  const keyString = oaepDecrypt(opts.minionPem, key).toString('latin1');
  const inner = new Crypticle(keyString).loads(payload);
  if (!isStringMap(inner)) return fail('payload does not decrypt');
  const data = asBytes(inner.data);
  const sig = asBytes(inner.sig);
  if (!data || !sig || !rsaVerify(opts.masterPub, data, sig)) return fail('signature does not verify');
  // whole floats stay floats (a pillar's `1.0`), as Salt's msgpack gives Python floats
  const signed = unpackNetwork(data, { exactFloats: true });
  if (!isStringMap(signed)) return fail('signed data is not a map');
  const signedKey = asBytes(signed.key);
  if (!signedKey?.equals(key)) return fail('key mismatch');
  if (signed.nonce !== opts.nonce) return fail('nonce mismatch');
  return signed[dictkey];
}
