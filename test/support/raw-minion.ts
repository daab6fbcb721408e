/**
 * A minion that is nothing but a signed-in aes channel: tests send the master hand-made
 * request loads (malformed ones included) as a minion would, and read its decrypted answers.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ReqClient } from '../../kernel/bus/req-client.js';
import { Crypticle } from '../../kernel/crypt/crypticle.js';
import { generateRsaKeyPair, x931Sign } from '../../kernel/crypt/rsa.js';
import { packNetwork, unpackNetwork } from '../../kernel/serial/index.js';
import { newAuthToken, signIn } from '../../minion/auth.js';

export interface RawMinion {
  /** Sends `load` (with the minion's id, tok, ts and nonce added) and returns the master's answer. */
  send(load: Record<string, unknown>): Promise<unknown>;
  /** The token `send` adds: the minion key's signature of `salt`. */
  readonly tok: Buffer;
  /** The aes frame of `load` exactly as given (nothing added): to replay or forge. */
  frame(load: Record<string, unknown>): Buffer;
  /** Sends a frame as it is; the master's answer, decrypted when a `nonce` is given and it is aes. */
  request(frame: Buffer, nonce?: string): Promise<unknown>;
  close(): void;
}

/** Signs `id` in to the master at `127.0.0.1:<retPort>` (its key must be accepted: auto_accept). */
export async function rawMinion(
  root: string,
  retPort: number,
  o: { id?: string; timeoutMs?: number } = {},
): Promise<RawMinion> {
  const id = o.id ?? 'rawclient';
  const keys = generateRsaKeyPair();
  const pkiDir = join(root, `raw-${id}`);
  mkdirSync(pkiDir, { recursive: true });
  const masterUri = `tcp://127.0.0.1:${retPort}`;
  const outcome = await signIn({
    id,
    pkiDir,
    keys,
    masterUri,
    encAlgo: 'OAEP-SHA1',
    sigAlgo: 'PKCS1v15-SHA1',
    timeoutMs: 5000,
    token: newAuthToken(),
  });
  if (outcome.status !== 'accepted') throw new Error(`${id} was not accepted: ${outcome.status}`);
  const session = new Crypticle(outcome.creds.session);
  const req = new ReqClient(masterUri, { timeoutMs: o.timeoutMs ?? 10_000, tries: 1 });
  const tok = x931Sign(keys.privatePem, Buffer.from('salt'));
  const frame = (load: Record<string, unknown>): Buffer =>
    packNetwork({ enc: 'aes', load: session.dumps(load), version: 3, id });
  const request = async (bytes: Buffer, nonce?: string): Promise<unknown> => {
    const reply = unpackNetwork(await req.request(bytes));
    return reply instanceof Uint8Array && nonce !== undefined
      ? session.loads(Buffer.from(reply), nonce)
      : reply;
  };
  return {
    async send(load) {
      const nonce = randomUUID().replace(/-/g, '');
      return request(frame({ id, ts: Math.floor(Date.now() / 1000), tok, nonce, ...load }), nonce);
    },
    tok,
    frame,
    request,
    close: () => req.close(),
  };
}
