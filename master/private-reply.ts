/**
 * Salt's `send_private` (PROTOCOL.md §3): an answer only one minion can read, as `_pillar` is
 * answered. A one-time AES key, encrypted to the minion's public key, and under it the answer
 * with the request's nonce, signed by the master.
 */
import { Crypticle } from '../kernel/crypt/crypticle.js';
import { oaepEncrypt, rsaSign } from '../kernel/crypt/rsa.js';
import { packNetwork } from '../kernel/serial/index.js';

/** Builds the `send_private` reply `{key, pillar}` (Salt's field names) for a minion. */
export function privateReply(
  masterPrivatePem: string,
  minionPub: string,
  answer: unknown,
  nonce: string,
): Record<string, unknown> {
  const keyString = Crypticle.generateKeyString();
  const key = oaepEncrypt(minionPub, Buffer.from(keyString));
  const data = packNetwork({ key, pillar: answer, nonce });
  const sig = rsaSign(masterPrivatePem, data);
  return { key, pillar: new Crypticle(keyString).dumps({ data, sig }) };
}
