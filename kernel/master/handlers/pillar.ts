/**
 * `_pillar`: the minion reports its grains (kept in the minion data cache, Salt's
 * `<cachedir>/minions/<id>/data.p`, for targeting) and gets its pillar back in Salt's
 * `send_private` form (PROTOCOL.md §3). tsalt has no pillar sources yet: the pillar is empty.
 */

import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { Crypticle } from '../../crypt/crypticle.js';
import { oaepEncrypt, rsaSign } from '../../crypt/rsa.js';
import { packIpc, packNetwork } from '../../serial/index.js';
import { isStringMap } from '../../serial/is-string-map.js';
import type { Effects, HandlerEnv } from './context.js';

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

/** Stores the minion's grains in the minion data cache; returns the minion's pillar. */
export async function handlePillar(
  env: HandlerEnv,
  id: string,
  load: Record<string, unknown>,
  effects: Effects,
): Promise<unknown> {
  const pillar = {};
  if (isStringMap(load.grains)) {
    // synchronous: this runs in a request worker, and a start-up storm brings one per minion
    const dir = join(env.config.cachedir, 'minions', id);
    mkdirSync(dir, { recursive: true });
    const tmp = join(dir, `.data.p.${process.pid}.${threadId}`);
    writeFileSync(tmp, packIpc({ grains: load.grains, pillar }));
    renameSync(tmp, join(dir, 'data.p'));
    effects.events.push({ tag: `minion/refresh/${id}`, data: { 'Minion data cache refresh': id } });
  }
  return pillar;
}
