/**
 * Which minions hold a live connection to the publisher. A tsalt minion subscribes, besides
 * everything (`""`), to its own presence topic; the publisher is an XPUB socket, which hears
 * that subscription when the minion connects and its cancellation when the connection drops.
 * The set is written to `<cachedir>/presence.json` for clients: a minion that did not return
 * is then "[Not connected]" (no live connection) or "[No response]" (connected but silent).
 * Minions that never announced themselves (stock Salt minions) are not tracked.
 */
import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The topic prefix of presence subscriptions; no publish frame starts with a NUL byte. */
export const PRESENCE_TOPIC_PREFIX = '\u0000tsalt-presence/';

export function presenceTopic(id: string): string {
  return `${PRESENCE_TOPIC_PREFIX}${id}`;
}

export interface PresenceSnapshot {
  /** Minions connected now. */
  present: string[];
  /** Minions that announced presence at least once since the publisher started. */
  tracked: string[];
  updated: number;
}

export function presencePath(cachedir: string): string {
  return join(cachedir, 'presence.json');
}

/** Reads the presence snapshot; undefined when the master has not written one. */
export function readPresence(cachedir: string): PresenceSnapshot | undefined {
  try {
    return JSON.parse(readFileSync(presencePath(cachedir), 'utf8')) as PresenceSnapshot;
  } catch {
    return undefined;
  }
}

/** Tracks subscriptions seen by an XPUB socket and writes the snapshot (debounced). */
export class PresenceTracker {
  readonly #path: string;
  readonly #present = new Set<string>();
  readonly #tracked = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(cachedir: string) {
    this.#path = presencePath(cachedir);
  }

  /** Feeds one XPUB subscription message (first byte 1 = subscribe, 0 = unsubscribe). */
  onSubscription(msg: Uint8Array): void {
    if (msg.length < 2) return;
    const topic = Buffer.from(msg.subarray(1)).toString('utf8');
    if (!topic.startsWith(PRESENCE_TOPIC_PREFIX)) return;
    const id = topic.slice(PRESENCE_TOPIC_PREFIX.length);
    if (!id) return;
    if (msg[0] === 1) {
      this.#present.add(id);
      this.#tracked.add(id);
    } else if (msg[0] === 0) this.#present.delete(id);
    else return;
    this.#schedule();
  }

  get present(): ReadonlySet<string> {
    return this.#present;
  }

  #schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, 100);
  }

  /** Writes the snapshot now. */
  flush(): Promise<void> {
    const snapshot: PresenceSnapshot = {
      present: [...this.#present].sort(),
      tracked: [...this.#tracked].sort(),
      updated: Date.now(),
    };
    this.#writing = this.#writing.then(async () => {
      const tmp = `${this.#path}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(snapshot));
      await rename(tmp, this.#path);
    });
    return this.#writing.catch(() => undefined);
  }

  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
  }
}
