/**
 * The minion side of the sign-in (`_auth`, PROTOCOL.md §5): send the public key (and, once
 * the master's key is known, an encrypted token), verify the signed reply, trust the master
 * key on first use, and recover the AES and session keys.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ReqClient } from '../kernel/bus/req-client.js';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import { Crypticle } from '../kernel/crypt/crypticle.js';
import { cleanKey } from '../kernel/crypt/keys.js';
import {
  type EncAlgo,
  oaepDecrypt,
  oaepEncrypt,
  rsaVerify,
  type SigAlgo,
  x931Recover,
} from '../kernel/crypt/rsa.js';
import { SALT_ERR_AUTH_MASTER_KEY } from '../kernel/errors.js';
import { packNetwork, unpackNetwork } from '../kernel/serial/index.js';
import { isStringMap } from '../kernel/serial/is-string-map.js';

export interface MinionKeys {
  privatePem: string;
  publicPem: string;
}

export interface AuthParams {
  id: string;
  pkiDir: string;
  keys: MinionKeys;
  masterUri: string;
  encAlgo: EncAlgo;
  sigAlgo: SigAlgo;
  timeoutMs: number;
  /** The token this minion process made once (a key string). */
  token: string;
  /**
   * The minion's request channel to the master: the sign-in goes over its connection, which the
   * minion's aes requests then keep using (one TCP connection and ZMTP handshake less per sign-in
   * on both sides), and `masterUri` is not used. Without it (and without `send`), a REQ
   * connection of its own to `masterUri`, closed after the reply, as Salt's minion makes.
   */
  client?: ReqClient;
  /** Sends the request frame and resolves with the reply frame (tests pass libzmq's REQ here). */
  send?: (frame: Buffer) => Promise<Buffer>;
}

export interface Credentials {
  aes: string;
  session: string;
  publishPort: number;
  masterPub: string;
}

export type AuthOutcome =
  | { status: 'accepted'; creds: Credentials }
  | { status: 'pending' }
  | { status: 'rejected' }
  | { status: 'full' }
  | { status: 'error'; message: string };

function masterPubPath(pkiDir: string): string {
  return join(pkiDir, 'minion_master.pub');
}

async function readMasterPub(pkiDir: string): Promise<string | undefined> {
  try {
    return cleanKey(await readFile(masterPubPath(pkiDir), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The sign-in parameters a minion's config gives (`pki_dir`, the algorithms, `auth_timeout`),
 * for a sign-in over `client`, the minion's request channel.
 */
export function minionAuthParams(
  config: ResolvedMinionConfig,
  p: { id: string; keys: MinionKeys; masterUri: string; token: string; client: ReqClient },
): AuthParams {
  return {
    id: p.id,
    pkiDir: config.pki_dir,
    keys: p.keys,
    masterUri: p.masterUri,
    encAlgo: config.encryption_algorithm,
    sigAlgo: config.signing_algorithm,
    timeoutMs: config.auth_timeout * 1000,
    token: p.token,
    client: p.client,
  };
}

/** A fresh token, made once per minion process (Salt: once per AsyncAuth). */
export function newAuthToken(): string {
  return Crypticle.generateKeyString();
}

/**
 * Frames a sign-in request (Salt's `minion_sign_in_payload`): `token` (already encrypted to
 * the master key) only when the master key is known.
 */
export function buildAuthRequest(opts: {
  id: string;
  nonce: string;
  encAlgo: EncAlgo;
  sigAlgo: SigAlgo;
  token?: Buffer;
  publicPem: string;
}): Buffer {
  const load: Record<string, unknown> = {
    cmd: '_auth',
    id: opts.id,
    nonce: opts.nonce,
    enc_algo: opts.encAlgo,
    sig_algo: opts.sigAlgo,
  };
  if (opts.token) load.token = opts.token;
  load.pub = cleanKey(opts.publicPem);
  return packNetwork({ enc: 'clear', load, version: 3 });
}

/** One request on a connection of its own, closed after the reply. */
async function requestOnce(masterUri: string, timeoutMs: number, frame: Buffer): Promise<Buffer> {
  const client = new ReqClient(masterUri, { timeoutMs, tries: 1 });
  try {
    return await client.request(frame);
  } finally {
    client.close();
  }
}

/** One sign-in attempt. */
export async function signIn(p: AuthParams): Promise<AuthOutcome> {
  const knownMaster = await readMasterPub(p.pkiDir);
  const nonce = randomUUID().replace(/-/g, '');
  const token = knownMaster ? oaepEncrypt(knownMaster, Buffer.from(p.token), p.encAlgo) : undefined;
  const request = buildAuthRequest({
    id: p.id,
    nonce,
    encAlgo: p.encAlgo,
    sigAlgo: p.sigAlgo,
    token,
    publicPem: p.keys.publicPem,
  });
  const client = p.client;
  const send =
    p.send ??
    (client
      ? (frame: Buffer) => client.request(frame, { timeoutMs: p.timeoutMs, tries: 1 })
      : (frame: Buffer) => requestOnce(p.masterUri, p.timeoutMs, frame));
  let replyFrame: Buffer;
  try {
    replyFrame = await send(request);
  } catch (err) {
    return { status: 'error', message: (err as Error).message };
  }
  let reply: unknown;
  try {
    reply = unpackNetwork(replyFrame);
  } catch {
    return { status: 'error', message: 'undecodable auth reply' };
  }
  if (!isStringMap(reply))
    return { status: 'error', message: `unexpected auth reply ${JSON.stringify(reply)}` };
  let inner: Record<string, unknown>;
  let signedBytes: Buffer | undefined;
  if (reply.load instanceof Uint8Array) {
    signedBytes = Buffer.from(reply.load);
    const decoded = unpackNetwork(signedBytes);
    if (!isStringMap(decoded)) return { status: 'error', message: 'auth reply load is not a map' };
    inner = decoded;
  } else if (isStringMap(reply.load)) {
    inner = reply.load;
  } else return { status: 'error', message: 'auth reply without load' };

  if (!('pub_key' in inner)) {
    const verifyKey = knownMaster;
    if (
      signedBytes &&
      verifyKey &&
      !(
        reply.sig instanceof Uint8Array &&
        rsaVerify(verifyKey, signedBytes, Buffer.from(reply.sig), p.sigAlgo)
      )
    ) {
      return { status: 'error', message: 'auth reply signature did not verify' };
    }
    if (inner.ret === 'full') return { status: 'full' };
    if (inner.ret === true) return { status: 'pending' };
    if (inner.ret === false) return { status: 'rejected' };
    return { status: 'error', message: `master answered ${String(inner.ret)}` };
  }

  const masterPub = cleanKey(String(inner.pub_key));
  if (knownMaster && knownMaster !== masterPub) {
    throw new SALT_ERR_AUTH_MASTER_KEY(
      'the master public key changed; remove minion_master.pub if this is expected',
    );
  }
  if (
    !signedBytes ||
    !(reply.sig instanceof Uint8Array) ||
    !rsaVerify(masterPub, signedBytes, Buffer.from(reply.sig), p.sigAlgo)
  ) {
    return { status: 'error', message: 'auth reply signature did not verify' };
  }
  if (inner.nonce !== nonce) return { status: 'error', message: 'auth reply nonce mismatch' };
  if (
    !(inner.aes instanceof Uint8Array) ||
    !(inner.session instanceof Uint8Array) ||
    !(inner.sig instanceof Uint8Array)
  ) {
    return { status: 'error', message: 'auth reply is missing keys' };
  }
  const aes = oaepDecrypt(p.keys.privatePem, Buffer.from(inner.aes), p.encAlgo).toString('latin1');
  const digest = createHash('sha256').update(aes).digest('hex');
  if (x931Recover(masterPub, Buffer.from(inner.sig)).toString('latin1') !== digest) {
    return { status: 'error', message: 'AES key signature did not verify' };
  }
  if (knownMaster && token) {
    if (!(inner.token instanceof Uint8Array)) return { status: 'error', message: 'auth reply without token' };
    const echoed = oaepDecrypt(p.keys.privatePem, Buffer.from(inner.token), p.encAlgo).toString('latin1');
    if (echoed !== p.token) return { status: 'error', message: 'auth reply token mismatch' };
  }
  const session = oaepDecrypt(p.keys.privatePem, Buffer.from(inner.session), p.encAlgo).toString('latin1');
  if (!knownMaster) await writeFile(masterPubPath(p.pkiDir), `${masterPub}\n`, { mode: 0o644 });
  return { status: 'accepted', creds: { aes, session, publishPort: Number(inner.publish_port), masterPub } };
}
