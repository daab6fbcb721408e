/**
 * Loop protection: which events the reactor must not react to because it caused them.
 *
 * 1. Its own trace events (`salt/reactor/...`): a `*` glob would otherwise feed on itself.
 * 2. Events whose data says `user: Reactor` (Salt's rule, `Reactor.run`): every job the
 *    reactor starts is sent as user `Reactor`, so `salt/job/<jid>/new`, `salt/run/<jid>/new`
 *    and `/ret`, `salt/wheel/<jid>/new` and `/ret` carry it.
 * 3. Events of the jobs it started (tsalt's addition, since minion returns carry no user):
 *    `<jid>`, `salt/job/<jid>/...`, `salt/run/<jid>/...`, `salt/wheel/<jid>/...`, or data with
 *    that `jid`. The last `capacity` jids are remembered.
 * 4. A circuit breaker for loops the rules above cannot see (a job that fires a new event
 *    with `event.send`): a reactor glob that matched more than `burst` events within one
 *    second is paused for `pauseMs`, with an error trace event saying so.
 */
const JID_TAG = /^(?:salt\/(?:job|run|wheel)\/)?(\d{20}(?:_\d+)?)(?:\/|$)/;

export interface LoopGuardOptions {
  capacity?: number;
  /** Matches of one glob per second before it is paused; 0 turns the breaker off. */
  burst?: number;
  pauseMs?: number;
  now?: () => number;
}

export const REACTOR_USER = 'Reactor';

export class LoopGuard {
  readonly #jids = new Set<string>();
  readonly #capacity: number;
  readonly #burst: number;
  readonly #pauseMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, { start: number; count: number; pausedUntil: number }>();

  constructor(o: LoopGuardOptions = {}) {
    this.#capacity = o.capacity ?? 10_000;
    this.#burst = o.burst ?? 0;
    this.#pauseMs = o.pauseMs ?? 60_000;
    this.#now = o.now ?? Date.now;
  }

  /** A job the reactor started: its events are not reacted to. */
  remember(jid: string): void {
    this.#jids.add(jid);
    if (this.#jids.size > this.#capacity) {
      const oldest = this.#jids.values().next().value;
      if (oldest !== undefined) this.#jids.delete(oldest);
    }
  }

  /** Why the reactor ignores this event, or undefined when it may react. */
  ignoreReason(tag: string, data: unknown): string | undefined {
    if (tag.startsWith('salt/reactor/')) return 'a reactor trace event';
    const map = typeof data === 'object' && data !== null && !Array.isArray(data);
    const d = map ? (data as Record<string, unknown>) : {};
    if (d.user === REACTOR_USER) return `fired for user ${REACTOR_USER}`;
    const jid = JID_TAG.exec(tag)?.[1] ?? (typeof d.jid === 'string' ? d.jid : undefined);
    if (jid !== undefined && this.#jids.has(jid)) return `an event of reactor job ${jid}`;
    return undefined;
  }

  /**
   * Counts one match of `glob`; returns a message when the glob is (or just got) paused by
   * the circuit breaker, `tripped` telling whether this call paused it.
   */
  admit(glob: string): { paused: false } | { paused: true; tripped: boolean; until: number } {
    if (this.#burst <= 0) return { paused: false };
    const now = this.#now();
    let w = this.#windows.get(glob);
    if (!w) {
      w = { start: now, count: 0, pausedUntil: 0 };
      this.#windows.set(glob, w);
    }
    if (now < w.pausedUntil) return { paused: true, tripped: false, until: w.pausedUntil };
    if (now - w.start >= 1000) {
      w.start = now;
      w.count = 0;
    }
    w.count++;
    if (w.count > this.#burst) {
      w.pausedUntil = now + this.#pauseMs;
      w.count = 0;
      return { paused: true, tripped: true, until: w.pausedUntil };
    }
    return { paused: false };
  }
}
