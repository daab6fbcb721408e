/**
 * The master (or minion) event bus on ZeroMQ over ipc: firers PUSH to `<prefix>_pull.ipc`, the
 * event publisher re-publishes each frame on `<prefix>_pub.ipc`, listeners SUB by tag prefix.
 * A frame is Salt's event body: `<tag>\n\n<msgpack(data)>`, so ZeroMQ's prefix subscription
 * is exactly Salt's tag-prefix matching.
 */
import { randomUUID } from 'node:crypto';
import { Publisher, Pull, Push, Subscriber } from 'zeromq';
import type { SaltEvent } from '../jobs/types.js';
import { decodeEventBody } from '../serial/index.js';
import { bindOrFail, ipcAddress } from './address.js';
import { stampedEventBody } from './event-body.js';
import { SendQueue } from './send-queue.js';

export interface EventBusAddresses {
  pub: string;
  pull: string;
}

/** The master bus's two ipc endpoints under `sock_dir`. */
export function masterEventAddresses(sockDir: string): EventBusAddresses {
  return {
    pub: ipcAddress(sockDir, 'master_event_pub.ipc'),
    pull: ipcAddress(sockDir, 'master_event_pull.ipc'),
  };
}

/** Binds the bus and forwards every pulled frame to subscribers until closed. */
export class EventPublisher {
  readonly #pull = new Pull();
  readonly #pub = new Publisher({ sendHighWaterMark: 100_000 });
  #queue = new SendQueue(this.#pub);
  #running = false;

  async bind(addrs: EventBusAddresses): Promise<void> {
    await bindOrFail(this.#pub, addrs.pub);
    await bindOrFail(this.#pull, addrs.pull);
  }

  /** Forwards frames; resolves when closed. */
  async run(): Promise<void> {
    this.#running = true;
    try {
      for await (const frames of this.#pull) {
        const [frame] = frames;
        if (frame) this.#queue.push(frame);
      }
    } catch (err) {
      if (this.#running) throw err;
    }
  }

  close(): void {
    this.#running = false;
    this.#pull.close();
    this.#pub.close();
  }
}

/** Fires events onto a bus. Never blocks the caller; frames queue while the bus is away. */
export class EventFirer {
  readonly #push = new Push({ sendHighWaterMark: 100_000, linger: 1000 });
  readonly #queue = new SendQueue(this.#push);

  constructor(addrs: EventBusAddresses) {
    this.#push.connect(addrs.pull);
  }

  /** Fires `data` (a map) under `tag`, adding `_stamp`. */
  fire(tag: string, data: Record<string, unknown>): void {
    this.#queue.push(stampedEventBody(tag, data));
  }

  /** Fires an already encoded event body. */
  fireRaw(body: Buffer): void {
    this.#queue.push(body);
  }

  async close(): Promise<void> {
    await this.#queue.drain();
    this.#push.close();
  }
}

/** Listens to a bus for tags starting with the given prefixes. */
export class EventListener implements AsyncIterable<SaltEvent> {
  readonly #sub = new Subscriber({ receiveHighWaterMark: 100_000 });
  readonly #addrs: EventBusAddresses;

  constructor(addrs: EventBusAddresses, prefixes: readonly string[]) {
    this.#addrs = addrs;
    this.#sub.connect(addrs.pub);
    for (const p of prefixes) this.#sub.subscribe(p);
  }

  subscribe(prefix: string): void {
    this.#sub.subscribe(prefix);
  }

  /**
   * Resolves once the subscription is live on the publisher (ZeroMQ subscriptions propagate
   * asynchronously): fires probe events until one comes back. Rejects after `timeoutMs`.
   */
  async ready(timeoutMs = 5000): Promise<void> {
    const tag = `tsalt/probe/${randomUUID()}`;
    this.#sub.subscribe(tag);
    const firer = new EventFirer(this.#addrs);
    const deadline = Date.now() + timeoutMs;
    this.#sub.receiveTimeout = 25;
    try {
      for (;;) {
        firer.fire(tag, {});
        try {
          const [frame] = await this.#sub.receive();
          if (frame?.subarray(0, tag.length).toString() === tag) break;
        } catch {
          if (Date.now() > deadline) throw new Error(`event bus at ${this.#addrs.pub} did not answer`);
        }
      }
    } finally {
      this.#sub.receiveTimeout = -1;
      this.#sub.unsubscribe(tag);
      await firer.close();
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SaltEvent> {
    try {
      for await (const [frame] of this.#sub) {
        if (!frame) continue;
        let ev: { tag: string; data: unknown };
        try {
          ev = decodeEventBody(frame);
        } catch {
          continue;
        }
        if (ev.tag.startsWith('tsalt/probe/')) continue;
        yield { tag: ev.tag, data: (ev.data ?? {}) as Record<string, unknown> };
      }
    } catch (err) {
      if (!this.#sub.closed) throw err;
    }
  }

  close(): void {
    this.#sub.close();
  }
}
