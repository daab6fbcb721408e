/**
 * The publisher's socket with replays (no Salt counterpart): tsalt's ZMTP publisher that, when a
 * connection subscribes, sends it the recent publishes it may have missed (master/publish-replay.ts).
 * A tsalt minion names itself with its presence topic (kernel/bus/presence.ts) right after
 * subscribing to everything, so the replay waits a moment for it: then only publishes that may
 * target that minion, and not those its previous connection was sent live, are replayed. A stock
 * Salt minion does not name itself: it is replayed the recent publishes and matches them itself.
 * Live publishes reach a new connection only after its replay (serials must rise). What the
 * master knows the minion ran already is left out (`filter`, master/replay-known-runs.ts).
 */
import { PRESENCE_TOPIC_PREFIX } from '../kernel/bus/presence.js';
import { encodeMessage, type Frame } from '../kernel/bus/zmtp/frame.js';
import { ZmtpPublisher, type ZmtpPublisherOptions } from '../kernel/bus/zmtp/pub-server.js';
import type { ZmtpPeer } from '../kernel/bus/zmtp/server.js';
import type { LiveSpan, ReplayItem } from './publish-replay.js';
import type { ReplayConnection } from './replay-known-runs.js';

/** How long a new subscriber is given to name itself before its replay. */
export const REPLAY_NAME_WAIT_MS = 100;

export interface ReplayingPublisherOptions extends ZmtpPublisherOptions {
  /**
   * The publishes to replay to a new connection of `id` (undefined: unnamed), only those after
   * order number `after`.
   */
  replayFor: (id: string | undefined, last: LiveSpan | undefined, after?: number) => ReplayItem[];
  /** Leaves out what the connection is known to have run (the replay waits for it). */
  filter?: (conn: ReplayConnection, items: ReplayItem[]) => Promise<ReplayItem[]>;
  /** The order number of the last publish (to know what a connection was sent live). */
  seq: () => number;
  onReplay?: (id: string | undefined, frames: number) => void;
}

interface PeerState {
  id?: string;
  /** `seq()` when live publishes started to reach the peer. */
  from?: number;
  timer?: NodeJS.Timeout;
  replayed?: boolean;
}

export class ReplayingPublisher extends ZmtpPublisher {
  readonly #opts: ReplayingPublisherOptions;
  readonly #state = new WeakMap<ZmtpPeer, PeerState>();
  /** Each minion's last closed connection. */
  readonly #lastSpan = new Map<string, LiveSpan>();

  constructor(opts: ReplayingPublisherOptions) {
    super(opts);
    this.#opts = opts;
  }

  protected override onFrame(peer: ZmtpPeer, frame: Frame): void {
    const sub = !frame.more && frame.body.length > 0 && frame.body[0] === 1;
    if (sub && frame.body.length === 1 && this.#holdAll(peer, () => super.onFrame(peer as never, frame)))
      return;
    super.onFrame(peer as never, frame);
    if (sub) this.#named(peer, frame.body.subarray(1));
  }

  protected override onCommand(peer: ZmtpPeer, name: string, data: Buffer): void {
    const sub = name === 'SUBSCRIBE';
    if (sub && data.length === 0 && this.#holdAll(peer, () => super.onCommand(peer as never, name, data)))
      return;
    super.onCommand(peer as never, name, data);
    if (sub) this.#named(peer, data);
  }

  protected override onClosed(peer: ZmtpPeer): void {
    super.onClosed(peer as never);
    const s = this.#state.get(peer);
    if (!s) return;
    clearTimeout(s.timer);
    if (s.id !== undefined && s.from !== undefined)
      this.#lastSpan.set(s.id, { from: s.from, to: this.#opts.seq() });
    this.#state.delete(peer);
  }

  /**
   * A first subscription to everything: held until the replay is sent, so that no live publish
   * (a higher serial) reaches the minion before the replayed ones, which it would then refuse.
   */
  #holdAll(peer: ZmtpPeer, subscribe: () => void): boolean {
    let s = this.#state.get(peer);
    if (s?.timer || s?.replayed) return false;
    s ??= {};
    this.#state.set(peer, s);
    s.timer = setTimeout(() => this.#replay(peer, subscribe), REPLAY_NAME_WAIT_MS);
    return true;
  }

  /** A presence topic names the minion behind the connection. */
  #named(peer: ZmtpPeer, topic: Buffer): void {
    const text = topic.toString('utf8');
    if (!text.startsWith(PRESENCE_TOPIC_PREFIX)) return;
    let s = this.#state.get(peer);
    s ??= {};
    this.#state.set(peer, s);
    s.id = text.slice(PRESENCE_TOPIC_PREFIX.length);
  }

  #replay(peer: ZmtpPeer, subscribe: () => void): void {
    const s = this.#state.get(peer);
    if (!s || peer.socket.destroyed || !peer.ready) return;
    s.timer = undefined;
    s.replayed = true;
    const last = s.id === undefined ? undefined : this.#lastSpan.get(s.id);
    const upTo = this.#opts.seq();
    let items: ReplayItem[] = [];
    try {
      items = this.#opts.replayFor(s.id, last);
    } catch {
      // nothing to replay
    }
    const filter = this.#opts.filter;
    if (!filter || items.length === 0) {
      this.#send(peer, s, items, subscribe);
      return;
    }
    const conn: ReplayConnection = { id: s.id, address: peer.socket.remoteAddress };
    void filter(conn, items)
      .catch(() => items)
      .then((kept) => {
        if (peer.socket.destroyed || this.#state.get(peer) !== s) return;
        // published while the filter ran: new to this minion, in order after the rest
        let late: ReplayItem[] = [];
        try {
          late = this.#opts.replayFor(s.id, last, upTo);
        } catch {
          // none
        }
        this.#send(peer, s, [...kept, ...late], subscribe);
      });
  }

  #send(peer: ZmtpPeer, s: PeerState, items: ReplayItem[], subscribe: () => void): void {
    try {
      for (const item of items) peer.socket.write(encodeMessage([item.envelope]));
    } finally {
      // live publishes from here on: after the replayed ones, in serial order
      s.from = this.#opts.seq();
      subscribe();
    }
    this.#opts.onReplay?.(s.id, items.length);
  }
}
