/** Asking a running bus for its counters (`salt-run bus.stats`, tests, benches). */
import { randomUUID } from 'node:crypto';
import { SALT_ERR_BUS_TIMEOUT } from '../errors.js';
import { type BusStats, STATS_REQUEST_TAG, STATS_TAG } from './bus-stats.js';
import { type EventBusAddresses, EventFirer, EventListener } from './event-bus.js';

/** Fires `tsalt/bus/stats/request` and waits for the publisher's answer. */
export async function requestBusStats(addrs: EventBusAddresses, timeoutMs = 5000): Promise<BusStats> {
  const id = randomUUID();
  const listener = new EventListener(addrs, [STATS_TAG], { reportLag: false });
  const firer = new EventFirer(addrs);
  let timer: NodeJS.Timeout | undefined;
  try {
    await listener.ready(timeoutMs);
    firer.fire(STATS_REQUEST_TAG, { id });
    const wait = (async () => {
      for await (const ev of listener) if (ev.tag === STATS_TAG && ev.data.id === id) return ev.data;
      return undefined;
    })();
    const timeout = new Promise<undefined>((res) => {
      timer = setTimeout(() => res(undefined), timeoutMs);
    });
    const data = await Promise.race([wait, timeout]);
    if (!data)
      throw new SALT_ERR_BUS_TIMEOUT(`asking the event bus at ${addrs.pub} for its counters`, timeoutMs);
    const { id: _id, _stamp, ...stats } = data;
    return stats as unknown as BusStats;
  } finally {
    if (timer) clearTimeout(timer);
    listener.close();
    await firer.close();
  }
}
