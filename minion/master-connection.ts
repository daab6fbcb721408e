/**
 * A minion's connection to its master: the sign-in (waiting while the key is pending, as Salt's
 * minion does), the aes request channel on the one request connection, re-authentication when
 * the session or the master's AES key is stale, the private `_pillar` exchange, and opening the
 * publishes the master sends.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { ReqClient } from '../kernel/bus/req-client.js';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import type { Crypticle } from '../kernel/crypt/crypticle.js';
import type { RsaKeyPair as KeyPair } from '../kernel/crypt/rsa.js';
import { SALT_ERR_AUTH_REJECTED } from '../kernel/errors.js';
import type { PillarAsk } from '../kernel/loader/define.js';
import { AesChannel, StaleSessionError } from './aes-channel.js';
import { type Credentials, minionAuthParams, newAuthToken, signIn } from './auth.js';
import { KeptCrypticle } from './kept-crypticle.js';
import { openPrivateReply } from './private-reply.js';
import { decryptPublish, openEnvelope } from './publish-decoder.js';

/** How one aes request travels: each try's timeout, and `slow` for the second connection. */
export interface SendOptions {
  timeoutMs?: number;
  slow?: boolean;
}

export class MasterConnection {
  readonly #config: ResolvedMinionConfig;
  readonly #id: string;
  readonly #keys: KeyPair;
  readonly #log: Logger;
  readonly #requests: ReqClient;
  readonly #stop = new AbortController();
  readonly masterUri: string;
  #creds: Credentials | undefined;
  #pubCrypticle: Crypticle | undefined;
  #channel: AesChannel | undefined;
  /** A second channel on a connection of its own, for requests the master answers slowly. */
  #slow: AesChannel | undefined;
  #reauthing: Promise<void> | undefined;

  constructor(config: ResolvedMinionConfig, id: string, keys: KeyPair, masterUri: string, log: Logger) {
    this.#config = config;
    this.#id = id;
    this.#keys = keys;
    this.#log = log;
    this.masterUri = masterUri;
    // the minion's one request connection to the master: sign-ins and aes requests share it
    this.#requests = new ReqClient(masterUri, {
      timeoutMs: config.return_retry_timer * 1000,
      tries: config.return_retry_tries,
    });
  }

  readonly #authParams = (): Parameters<typeof signIn>[0] =>
    minionAuthParams(this.#config, {
      id: this.#id,
      keys: this.#keys,
      masterUri: this.masterUri,
      token: this.#token,
      client: this.#requests,
    });
  readonly #token = newAuthToken();

  /** What the last sign-in gave: the master's public key, publish port, AES key and session. */
  get creds(): Credentials {
    if (!this.#creds) throw new Error('not signed in');
    return this.#creds;
  }

  /** Signs in until accepted (or stopped); pending waits `acceptance_wait_time`, doubling up to the max. */
  async #authenticate(): Promise<Credentials> {
    const config = this.#config;
    const signal = this.#stop.signal;
    let wait = config.acceptance_wait_time;
    let errors = 0;
    for (;;) {
      if (signal.aborted) throw new Error('minion stopped');
      const outcome = await signIn(this.#authParams());
      if (outcome.status === 'accepted') return outcome.creds;
      // no idle connection held open on the master while waiting (Salt's minion holds none)
      this.#requests.disconnect();
      if (outcome.status === 'rejected' && !config.rejected_retry) throw new SALT_ERR_AUTH_REJECTED(this.#id);
      if (outcome.status === 'error') {
        errors++;
        this.#log.warn(
          { master: this.masterUri, err: outcome.message, attempt: errors },
          'sign-in failed; retrying',
        );
        await sleep(Math.min(1000 * 2 ** Math.min(errors - 1, 4), 10_000), undefined, { signal }).catch(
          () => undefined,
        );
        continue;
      }
      this.#log.info(
        { status: outcome.status, wait },
        'the master has not accepted this minion key yet; waiting',
      );
      await sleep(wait * 1000, undefined, { signal }).catch(() => undefined);
      if (config.acceptance_wait_time_max > 0) wait = Math.min(wait * 2, config.acceptance_wait_time_max);
    }
  }

  #take(creds: Credentials): void {
    this.#creds = creds;
    this.#pubCrypticle = new KeptCrypticle(creds.aes);
    this.#channel?.setSession(creds.session);
    this.#slow?.setSession(creds.session);
  }

  /** The first sign-in; resolves once the master accepted this minion's key. */
  async signIn(): Promise<void> {
    try {
      this.#take(await this.#authenticate());
    } catch (err) {
      this.#requests.close();
      throw err;
    }
    this.#channel = this.#aesChannel(this.#requests);
    this.#log.info({ master: this.masterUri }, 'authenticated with the master');
  }

  #aesChannel(client: ReqClient): AesChannel {
    return new AesChannel({
      client,
      id: this.#id,
      privatePem: this.#keys.privatePem,
      session: this.creds.session,
      encAlgo: this.#config.encryption_algorithm,
      sigAlgo: this.#config.signing_algorithm,
    });
  }

  /** Signs in again (once at a time, however many callers ask). */
  reauth(): Promise<void> {
    this.#reauthing ??= (async () => {
      this.#log.info('re-authenticating with the master');
      this.#take(await this.#authenticate());
    })().finally(() => {
      this.#reauthing = undefined;
    });
    return this.#reauthing;
  }

  #channelOrThrow(): AesChannel {
    if (!this.#channel) throw new Error('signIn() first');
    return this.#channel;
  }

  /**
   * The channel for a request: the one request connection, or, for a `slow` one (the master
   * answers it late, as a runner run for `publish.runner`), a second connection, so that the
   * wait holds up none of the minion's returns (Salt opens a channel per such call).
   */
  #channelFor(opts: SendOptions): AesChannel {
    const main = this.#channelOrThrow();
    if (!opts.slow) return main;
    this.#slow ??= this.#aesChannel(
      new ReqClient(this.masterUri, {
        timeoutMs: opts.timeoutMs ?? this.#config.return_retry_timer * 1000,
        tries: this.#config.return_retry_tries,
      }),
    );
    return this.#slow;
  }

  /** Sends an aes load, re-authenticating once when the session is stale. */
  async send(load: Record<string, unknown>, opts: SendOptions = {}): Promise<unknown> {
    try {
      return await this.#channelFor(opts).send(load, opts);
    } catch (err) {
      if (!(err instanceof StaleSessionError)) throw err;
      await this.reauth();
      return this.#channelFor(opts).send(load, opts);
    }
  }

  /**
   * Reports `grains` and fetches this minion's pillar (Salt's `_pillar`, answered privately),
   * for the minion's own saltenv and pillarenv, or those of `ask` (a fresh `pillar.items`).
   */
  async pillar(grains: unknown, ask?: PillarAsk): Promise<unknown> {
    const { reply, nonce } = await this.#channelOrThrow().sendPrivate({
      id: this.#id,
      grains,
      saltenv: ask ? ask.saltenv : (this.#config.saltenv ?? null),
      // the pillar plugin's minion option (plugins/pillar/options.ts), kept in `extra`
      pillarenv: ask
        ? ask.pillarenv
        : typeof this.#config.extra.pillarenv === 'string'
          ? this.#config.extra.pillarenv
          : null,
      pillar_override: ask ? ask.pillarOverride : {},
      extra_minion_data: {},
      ver: '2',
      cmd: '_pillar',
    });
    return openPrivateReply(reply, 'pillar', {
      minionPem: this.#keys.privatePem,
      masterPub: this.creds.masterPub,
      nonce,
    });
  }

  /**
   * A publish frame's load, or undefined when it is not for us to read (bad signature, another
   * key); a frame that does not decrypt makes the minion sign in again once (the master's AES
   * key changed: rotation or restart) and retry.
   */
  async openPublish(frame: Buffer): Promise<Record<string, unknown> | undefined> {
    const log = this.#log;
    const opened = openEnvelope(frame, this.#config.sign_pub_messages ? this.creds.masterPub : undefined);
    if (!opened.ok) {
      log.warn({ reason: opened.reason }, 'publish dropped');
      return undefined;
    }
    let decoded = decryptPublish(opened.enc, this.#pubCrypticle!);
    if (!decoded.ok && decoded.reason === 'does not decrypt') {
      try {
        await this.reauth();
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'publish could not be decrypted');
        return undefined;
      }
      decoded = decryptPublish(opened.enc, this.#pubCrypticle!);
    }
    if (!decoded.ok) {
      log.debug({ reason: decoded.reason }, 'publish dropped');
      return undefined;
    }
    return decoded.load;
  }

  /** Stops a sign-in that is waiting and closes the request connection. */
  close(): void {
    this.#stop.abort();
    this.#slow?.close();
    if (this.#channel) this.#channel.close();
    else this.#requests.close();
  }
}
