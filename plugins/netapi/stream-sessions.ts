/**
 * The event streams (`/events`, `/ws`) each token holds open, so that a token's end ends its
 * streams: at once on `POST /logout` here, and within {@link STREAM_RECHECK_MS} when the
 * token expires or is removed by anyone else (another salt-api on the same cachedir, an
 * operator). One token store read per distinct token per period, however many streams.
 */
import type { TokenStore } from './auth/token-store.js';

/** How often the tokens of open streams are checked. */
export const STREAM_RECHECK_MS = 1000;

/** Why a stream is ended when its token goes. */
export const TOKEN_GONE = 'the token expired or was revoked';

type CloseStream = (reason: string) => void;

export class StreamSessions {
  readonly #tokens: Pick<TokenStore, 'get'>;
  readonly #periodMs: number;
  readonly #byToken = new Map<string, Set<CloseStream>>();
  #timer: NodeJS.Timeout | undefined;
  #checking = false;

  constructor(tokens: Pick<TokenStore, 'get'>, periodMs = STREAM_RECHECK_MS) {
    this.#tokens = tokens;
    this.#periodMs = periodMs;
  }

  /** How many streams are registered. */
  get size(): number {
    let n = 0;
    for (const set of this.#byToken.values()) n += set.size;
    return n;
  }

  /** Registers a stream of `token`; returns the function that unregisters it. */
  add(token: string, close: CloseStream): () => void {
    const set = this.#byToken.get(token) ?? new Set<CloseStream>();
    this.#byToken.set(token, set.add(close));
    this.#timer ??= setInterval(() => void this.check(), this.#periodMs).unref();
    return () => this.#remove(token, close);
  }

  /** Ends every stream of `token` now (its owner logged out). */
  revoke(token: string): void {
    const set = this.#byToken.get(token);
    if (!set) return;
    this.#byToken.delete(token);
    for (const close of set) close(TOKEN_GONE);
    this.#idle();
  }

  /** Checks each token that has streams; ends the streams of the ones that are gone. */
  async check(): Promise<void> {
    if (this.#checking) return;
    this.#checking = true;
    try {
      for (const token of [...this.#byToken.keys()]) {
        const data = await this.#tokens.get(token).catch(() => undefined);
        if (!data) this.revoke(token);
      }
    } finally {
      this.#checking = false;
    }
  }

  /** Stops checking (the server closes; its sockets are ended by their own close). */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #remove(token: string, close: CloseStream): void {
    const set = this.#byToken.get(token);
    if (!set) return;
    set.delete(close);
    if (set.size === 0) this.#byToken.delete(token);
    this.#idle();
  }

  #idle(): void {
    if (this.#byToken.size === 0) this.stop();
  }
}
