/**
 * `_pillar`: tsalt has no pillar system yet, so every minion gets an empty pillar, in Salt's
 * `send_private` form so stock Salt minions can start (PROTOCOL.md §3).
 */
import { Crypticle } from '../../crypt/crypticle.js';
import { oaepEncrypt, rsaSign } from '../../crypt/rsa.js';
import { packNetwork } from '../../serial/index.js';
import type { HandlerEnv } from './context.js';

/** Builds the `send_private` reply `{key, pillar}` for a minion. */
export function privateReply(
  env: HandlerEnv,
  minionPub: string,
  pillar: unknown,
  nonce: string,
): Record<string, unknown> {
  const keyString = Crypticle.generateKeyString();
  const key = oaepEncrypt(minionPub, Buffer.from(keyString));
  const data = packNetwork({ key, pillar, nonce });
  const sig = rsaSign(env.keys.privatePem, data);
  return { key, pillar: new Crypticle(keyString).dumps({ data, sig }) };
}
