/**
 * The minion's encrypted request channel (PROTOCOL.md §3): each load gets `nonce`, `ts`,
 * `tok` and `id`, is encrypted with the session key, and the reply is decrypted with the
 * nonce check. A reply that is not decryptable means the session is stale: the caller
 * re-authenticates.
 */
import type { ReqClient } from '../kernel/bus/req-client.js';
import type { Crypticle } from '../kernel/crypt/crypticle.js';
import { freshNonce } from '../kernel/crypt/random-pool.js';
import { type EncAlgo, type SigAlgo, x931Sign } from '../kernel/crypt/rsa.js';
import { REQUEST_TOO_LARGE_REPLY, SALT_ERR_REQUEST_TOO_LARGE, SaltError } from '../kernel/errors.js';
import { asBytes } from '../kernel/serial/as-bytes.js';
import { packNetwork, unpackNetwork } from '../kernel/serial/index.js';
import { KeptCrypticle } from './kept-crypticle.js';

/**
 * Frames an aes request (Salt's `AsyncReqChannel._package_load`): the load, which already holds
 * `nonce`, `ts`, `tok` and `id`, encrypted with the session key (no nonce prefix inside).
 */
export function buildAesRequest(
  load: Record<string, unknown>,
  session: Crypticle,
  opts: { id: string; encAlgo: EncAlgo; sigAlgo: SigAlgo; iv?: Buffer },
): Buffer {
  return packNetwork({
    enc: 'aes',
    load: session.dumps(load, undefined, opts.iv),
    version: 3,
    id: opts.id,
    enc_algo: opts.encAlgo,
    sig_algo: opts.sigAlgo,
  });
}

export class StaleSessionError extends SaltError {
  constructor(why: string) {
    super('SALT_ERR_AUTH_SESSION', `the master refused this minion's session: ${why}`);
  }
}

export class AesChannel {
  readonly #client: ReqClient;
  readonly #id: string;
  readonly #tok: Buffer;
  readonly #encAlgo: EncAlgo;
  readonly #sigAlgo: SigAlgo;
  #session: Crypticle;

  /**
   * `client`: the REQ channel to the master, with its per-try timeout and tries; the channel owns
   * it from now on ({@link close} closes it). The sign-in may have gone over it already.
   */
  constructor(opts: {
    client: ReqClient;
    id: string;
    privatePem: string;
    session: string;
    encAlgo: EncAlgo;
    sigAlgo: SigAlgo;
  }) {
    this.#client = opts.client;
    this.#id = opts.id;
    this.#tok = x931Sign(opts.privatePem, Buffer.from('salt'));
    this.#encAlgo = opts.encAlgo;
    this.#sigAlgo = opts.sigAlgo;
    this.#session = new KeptCrypticle(opts.session);
  }

  setSession(session: string): void {
    this.#session = new KeptCrypticle(session);
  }

  /** Sends a load; resolves with the undecoded reply and the nonce the load carried. */
  async #exchange(
    load: Record<string, unknown>,
    opts: { timeoutMs?: number; tries?: number },
  ): Promise<{ reply: unknown; nonce: string; session: Crypticle }> {
    const nonce = freshNonce();
    const full = { ...load, nonce, ts: Math.floor(Date.now() / 1000), tok: this.#tok, id: this.#id };
    const session = this.#session;
    const frame = buildAesRequest(full, session, {
      id: this.#id,
      encAlgo: this.#encAlgo,
      sigAlgo: this.#sigAlgo,
    });
    const replyFrame = await this.#client.request(frame, opts);
    return { reply: unpackNetwork(replyFrame), nonce, session };
  }

  /**
   * True when a refused load went out with a session the channel has replaced since (a sign-in
   * ran while it waited in the queue): it is sent again, once, with the new one, instead of
   * making the caller sign in a second time.
   */
  #resend(session: Crypticle, attempt: number): boolean {
    return attempt === 0 && session !== this.#session;
  }

  /** Sends a load and resolves with the decrypted reply. */
  async send(
    load: Record<string, unknown>,
    opts: { timeoutMs?: number; tries?: number } = {},
  ): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const { reply, nonce, session } = await this.#exchange(load, opts);
      if (reply === REQUEST_TOO_LARGE_REPLY)
        throw new SALT_ERR_REQUEST_TOO_LARGE(`a ${String(load.cmd)} request`);
      const bytes = asBytes(reply);
      let why = 'unexpected reply';
      if (bytes) {
        try {
          return session.loads(bytes, nonce);
        } catch (err) {
          why = typeof reply === 'string' && reply.length < 64 ? reply : (err as Error).message;
        }
      }
      if (!this.#resend(session, attempt)) throw new StaleSessionError(why);
    }
  }

  /**
   * Sends a load whose reply is in Salt's `send_private` form (`_pillar`): resolves with that
   * map and the request nonce, for the caller to open and check.
   */
  async sendPrivate(
    load: Record<string, unknown>,
    opts: { timeoutMs?: number; tries?: number } = {},
  ): Promise<{ reply: unknown; nonce: string }> {
    for (let attempt = 0; ; attempt++) {
      const { reply, nonce, session } = await this.#exchange(load, opts);
      if (typeof reply !== 'string') return { reply, nonce };
      if (reply === REQUEST_TOO_LARGE_REPLY)
        throw new SALT_ERR_REQUEST_TOO_LARGE(`a ${String(load.cmd)} request`);
      if (!this.#resend(session, attempt)) throw new StaleSessionError(reply);
    }
  }

  close(): void {
    this.#client.close();
  }
}
