/**
 * Paces the light requests the request server's router thread handles itself: at most
 * `perTurn` start between two `setImmediate` turns (a loop iteration can so start up to twice
 * that: some in its poll phase, the queued ones in its check phase), and at most `maxRunning`
 * are under way at once (a slow job cache or returner hook would otherwise let them pile up).
 *
 * Why per turn: one poll phase can bring thousands (every minion returning at once), and
 * handled all in that phase they hold back what only a new turn lets out. libuv adds a
 * socket's write interest to epoll only at the start of a poll phase, so the events the
 * returns fired filled the event bus socket's kernel buffer and then waited until the last
 * return was handled (at 10,000 swarm minions, ~1 s of returns, then one burst to `salt`).
 */
import type { Dispatcher } from './request-queue.js';

export class TurnPacer implements Dispatcher {
  readonly #perTurn: number;
  readonly #maxRunning: number;
  #started = 0;
  #running = 0;
  #nextTurn: Promise<void> | undefined;
  #roomWaiters: (() => void)[] = [];

  constructor(perTurn: number, maxRunning = Number.POSITIVE_INFINITY) {
    this.#perTurn = perTurn;
    this.#maxRunning = maxRunning;
  }

  /** Requests started and not yet finished. */
  get running(): number {
    return this.#running;
  }

  /** Undefined while a request may start now; else resolves when one may try again. */
  whenAvailable(): Promise<void> | undefined {
    if (this.#running >= this.#maxRunning) return new Promise((resolve) => this.#roomWaiters.push(resolve));
    return this.#started < this.#perTurn ? undefined : this.#turn();
  }

  /** Counts a request started now. */
  started(): void {
    this.#started++;
    this.#running++;
    this.#turn();
  }

  /** Counts a request finished (answered, failed or handed on). */
  finished(): void {
    this.#running--;
    if (this.#roomWaiters.length === 0 || this.#running >= this.#maxRunning) return;
    const waiters = this.#roomWaiters;
    this.#roomWaiters = [];
    for (const w of waiters) w();
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
