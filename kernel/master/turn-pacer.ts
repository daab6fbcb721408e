/**
 * At most `perTurn` requests start per turn of the event loop; the rest wait for the next turn.
 * The request server's router thread handles light requests itself, and one poll phase can
 * bring it thousands (every minion returning at once): handled all in that phase, they hold
 * back what only a new turn lets out. libuv adds a socket's write interest to epoll only at the
 * start of a poll phase, so the events the returns fired filled the event bus socket's kernel
 * buffer and then waited until the last return was handled (at 10,000 swarm minions, ~1 s of
 * returns, then one burst to `salt`).
 */
import type { Dispatcher } from './request-queue.js';

export class TurnPacer implements Dispatcher {
  readonly #perTurn: number;
  #started = 0;
  #nextTurn: Promise<void> | undefined;

  constructor(perTurn: number) {
    this.#perTurn = perTurn;
  }

  /** Undefined while this turn has room; else resolves at the next turn (a `setImmediate`). */
  whenAvailable(): Promise<void> | undefined {
    return this.#started < this.#perTurn ? undefined : this.#turn();
  }

  /** Counts a request started in this turn. */
  started(): void {
    this.#started++;
    this.#turn();
  }

  #turn(): Promise<void> {
    this.#nextTurn ??= new Promise((resolve) =>
      setImmediate(() => {
        this.#started = 0;
        this.#nextTurn = undefined;
        resolve();
      }),
    );
    return this.#nextTurn;
  }
}
