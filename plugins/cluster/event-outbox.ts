/**
 * The job events a master sends back to the peers that published the jobs, gathered per peer and
 * sent once per event-loop turn (`setImmediate`): at 5,000 returns in a second, one signed frame
 * and one socket write per turn instead of one per return. At most `maxBatch` events go in a frame.
 */
import type { PeerAddress } from './peer-address.js';

export interface PeerEvent {
  tag: string;
  data: unknown;
}

export class EventOutbox {
  readonly #batches = new Map<PeerAddress, PeerEvent[]>();
  #scheduled: NodeJS.Immediate | undefined;

  constructor(
    private readonly send: (peer: PeerAddress, batch: PeerEvent[]) => void,
    private readonly maxBatch = 1000,
  ) {}

  add(peer: PeerAddress, ev: PeerEvent): void {
    let batch = this.#batches.get(peer);
    if (!batch) {
      batch = [];
      this.#batches.set(peer, batch);
    }
    batch.push(ev);
    if (batch.length >= this.maxBatch) {
      this.#batches.delete(peer);
      this.send(peer, batch);
    }
    this.#scheduled ??= setImmediate(() => this.flush());
  }

  /** Sends what is gathered now. */
  flush(): void {
    if (this.#scheduled) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    const all = [...this.#batches];
    this.#batches.clear();
    for (const [peer, batch] of all) this.send(peer, batch);
  }
}
