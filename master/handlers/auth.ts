/**
 * The master side of the minion sign-in (`_auth`), with Salt's decision table
 * (PROTOCOL.md §5): rejected, denied on key mismatch, pending, auto-accept, autosign file,
 * open mode; then the signed reply carrying the AES and session keys.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { isValidMinionId } from '../../kernel/auth/minion-id.js';
import {
  type KeyState,
  listKeys,
  moveKey,
  readKeySync,
  sameKey,
  writeKey,
  writeKeySync,
} from '../../kernel/auth/pki.js';
import {
  type EncAlgo,
  isEncAlgo,
  isSigAlgo,
  oaepDecrypt,
  oaepEncrypt,
  rsaSign,
  type SigAlgo,
  x931Sign,
} from '../../kernel/crypt/rsa.js';
import { packNetwork } from '../../kernel/serial/index.js';
import { sessionKeyFor } from '../session-keys.js';
import { idListedIn } from './autosign.js';
import type { Effects, HandlerEnv } from './context.js';

export interface AuthLoad {
  cmd: '_auth';
  id?: unknown;
  nonce?: unknown;
  enc_algo?: unknown;
  sig_algo?: unknown;
  token?: unknown;
  pub?: unknown;
}

let aesSig: { privatePem: string; aes: string; sig: Buffer } | undefined;

/**
 * The master's X9.31 signature over the SHA-256 of the AES key, which every accepted sign-in
 * carries: the same for every minion until the key rotates, so it is made once per key (one
 * RSA private-key operation less per sign-in; signatures are deterministic).
 */
function aesKeySignature(privatePem: string, aes: string): Buffer {
  if (aesSig?.aes !== aes || aesSig.privatePem !== privatePem) {
    const digest = createHash('sha256').update(aes).digest('hex');
    aesSig = { privatePem, aes, sig: x931Sign(privatePem, Buffer.from(digest)) };
  }
  return aesSig.sig;
}

/** Salt's `_clear_signed`: the load as msgpack bytes plus a PKCS#1 v1.5 signature over them. */
function clearSigned(
  env: HandlerEnv,
  load: Record<string, unknown>,
  sigAlgo: SigAlgo,
): Record<string, unknown> {
  const tosign = packNetwork(load);
  return { enc: 'clear', load: tosign, sig: rsaSign(env.keys.privatePem, tosign, sigAlgo) };
}

function authEvent(effects: Effects, result: boolean, act: string, id: string, pub: string): void {
  effects.events.push({ tag: 'salt/auth', data: { result, act, id, pub } });
}

/** `stored`: the accepted key file already holds this key (nothing to write). */
type Decision = { accept: true; stored: boolean } | { accept: false; ret: boolean | 'full'; act?: string };

async function decide(env: HandlerEnv, id: string, pub: string, effects: Effects): Promise<Decision> {
  const c = env.config;
  const pki = c.pki_dir;
  // key folders and autosign files are read synchronously: this runs in a request worker
  const read = (s: KeyState) => readKeySync(pki, s, id);
  if (c.open_mode) {
    // open mode takes any key and stores it (a changed key replaces the old one)
    const stored = read('accepted');
    return { accept: true, stored: stored !== undefined && sameKey(stored, pub) };
  }
  const autoReject = idListedIn(c.autoreject_file, id);
  const autoSign = c.auto_accept || idListedIn(c.autosign_file, id);

  if (read('rejected') !== undefined) {
    authEvent(effects, false, 'reject', id, pub);
    return { accept: false, ret: false };
  }
  const accepted = read('accepted');
  if (accepted !== undefined) {
    if (!sameKey(accepted, pub)) {
      await writeKey(pki, 'denied', id, pub);
      authEvent(effects, false, 'denied', id, pub);
      return { accept: false, ret: false };
    }
    return { accept: true, stored: true };
  }
  if (c.max_minions > 0) {
    const { minions } = await listKeys(pki);
    if (minions.length >= c.max_minions) {
      authEvent(effects, false, 'full', id, pub);
      return { accept: false, ret: 'full' };
    }
  }
  const pending = read('pending');
  if (pending === undefined) {
    if (statSync(`${pki}/minions_pre/${id}`, { throwIfNoEntry: false })?.isDirectory())
      return { accept: false, ret: false };
    if (autoReject) {
      await writeKey(pki, 'rejected', id, pub);
      authEvent(effects, false, 'reject', id, pub);
      return { accept: false, ret: false };
    }
    if (!autoSign) {
      await writeKey(pki, 'pending', id, pub);
      env.kernel.log.info(`New public key for ${id} placed in pending`);
      authEvent(effects, true, 'pend', id, pub);
      return { accept: false, ret: true };
    }
    return { accept: true, stored: false };
  }
  if (autoReject) {
    await moveKey(pki, 'pending', 'rejected', id);
    authEvent(effects, false, 'reject', id, pub);
    return { accept: false, ret: false };
  }
  if (!sameKey(pending, pub)) {
    await writeKey(pki, 'denied', id, pub);
    authEvent(effects, false, 'denied', id, pub);
    return { accept: false, ret: false };
  }
  if (!autoSign) {
    authEvent(effects, true, 'pend', id, pub);
    return { accept: false, ret: true };
  }
  await moveKey(pki, 'pending', 'accepted', id);
  return { accept: true, stored: true };
}

/** Handles a clear `_auth` load; returns the value to send back (msgpack'd by the caller). */
export async function handleAuth(
  env: HandlerEnv,
  load: AuthLoad,
  version: number,
  effects: Effects,
): Promise<unknown> {
  const encAlgo = load.enc_algo ?? 'OAEP-SHA1';
  const sigAlgo = load.sig_algo ?? 'PKCS1v15-SHA1';
  if (!isEncAlgo(encAlgo)) return { enc: 'clear', load: { ret: 'bad enc algo' } };
  if (!isSigAlgo(sigAlgo)) return { enc: 'clear', load: { ret: 'bad sig algo' } };
  const signed = version > 1;
  const nonce = typeof load.nonce === 'string' ? load.nonce : undefined;
  const refuse = (ret: boolean | 'full'): unknown =>
    signed ? clearSigned(env, { ret, nonce }, sigAlgo) : { enc: 'clear', load: { ret } };

  const id = load.id;
  if (!isValidMinionId(id)) {
    env.kernel.log.info({ id: String(id) }, 'authentication request from invalid id');
    return refuse(false);
  }
  if (typeof load.pub !== 'string' || !load.pub.includes('PUBLIC KEY')) {
    env.kernel.log.warn({ id }, 'authentication request without a usable public key');
    return refuse(false);
  }
  const pub = load.pub.trim();
  env.kernel.log.info(`Authentication request from ${id}`);
  const decision = await decide(env, id, pub, effects);
  if (!decision.accept) {
    const act = effects.events.at(-1)?.data.act;
    if (act === 'pend')
      env.kernel.log.info(
        `Authentication failed from host ${id}, the key is in pending and needs to be accepted with salt-key -a ${id}`,
      );
    else env.kernel.log.info({ act }, `Authentication refused for ${id}`);
    return refuse(decision.ret);
  }

  if (!decision.stored) writeKeySync(env.config.pki_dir, 'accepted', id, `${pub}\n`);
  let minionPub: string;
  try {
    minionPub = pub;
    const ret: Record<string, unknown> = {
      enc: 'pub',
      pub_key: env.keys.publicPem,
      publish_port: env.config.publish_port,
    };
    if (load.token instanceof Uint8Array || typeof load.token === 'string') {
      const mtoken = oaepDecrypt(
        env.keys.privatePem,
        Buffer.from(load.token as Uint8Array),
        encAlgo as EncAlgo,
      );
      ret.token = oaepEncrypt(minionPub, mtoken, encAlgo as EncAlgo);
    }
    const aes = env.aesKey();
    ret.aes = oaepEncrypt(minionPub, Buffer.from(aes), encAlgo as EncAlgo);
    const session = await sessionKeyFor(env.config.cachedir, id, env.config.publish_session);
    const seen = env.cache.learn(id, { pub, session });
    ret.session = oaepEncrypt(minionPub, Buffer.from(session), encAlgo as EncAlgo);
    ret.sig = aesKeySignature(env.keys.privatePem, aes);
    ret.nonce = nonce;
    effects.signIns.push({
      id,
      pub,
      session,
      pubMtimeMs: seen.pubMtimeMs,
      sessionMtimeMs: seen.sessionMtimeMs,
    });
    authEvent(effects, true, 'accept', id, pub);
    env.kernel.log.info(`Authentication accepted from ${id}`);
    return signed ? clearSigned(env, ret, sigAlgo as SigAlgo) : { enc: 'clear', load: ret };
  } catch (err) {
    env.kernel.log.warn({ id, err: (err as Error).message }, 'authentication failed');
    return refuse(false);
  }
}
