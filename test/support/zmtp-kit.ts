/**
 * What the ZMTP socket tests (kernel/bus/zmtp/*.test.ts) share: sockets closed after each test,
 * a raw TCP peer for speaking broken ZMTP by hand, and polling until a condition holds.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach } from 'vitest';

/** Things to close after each test, newest first; register the hook once per test file. */
export function closeAfterEach(): { close(): unknown }[] {
  const opened: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const s of opened.splice(0).reverse()) await s.close();
  });
  return opened;
}

/** A plain TCP connection to 127.0.0.1:`port`, destroyed by `opened`'s hook. */
export function rawPeer(port: number, opened: { close(): unknown }[]): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
    opened.push({ close: () => s.destroy() });
  });
}

/** Polls `check` every 5 ms; throws when it is still false after `ms`. */
export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}
