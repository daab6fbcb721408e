/**
 * The event-return child (Salt's `EventReturn` process): started only when `event_return`
 * names returners; listens to the whole master bus and feeds their `eventReturn` in batches
 * (kernel/master/event-return-queue.ts), flushing what is left when it stops.
 */
import { EventListener, masterEventAddresses } from '../../bus/event-bus.js';
import type { ResolvedMasterConfig } from '../../config/index.js';
import { runChild } from '../../daemon/child-runtime.js';
import { returnerNames, withinTime } from '../../jobs/returner-calls.js';
import { EventReturnQueue, type EventSink } from '../event-return-queue.js';
import { masterReturnerLoader } from '../job-cache.js';

await runChild<ResolvedMasterConfig>('event-return', async ({ config, log }) => {
  const loader = masterReturnerLoader(config, log);
  const sinks: EventSink[] = [];
  for (const name of returnerNames(config.event_return)) {
    try {
      const { def } = await loader.get(name);
      if (!def.eventReturn) {
        log.error({ returner: name }, `event_return ${name}: this returner has no event_return function`);
        continue;
      }
      const ctx = loader.context(def);
      const eventReturn = def.eventReturn.bind(def);
      sinks.push({
        name,
        send: (events) => withinTime(eventReturn(events, ctx), 30_000, name, 'eventReturn'),
      });
    } catch (err) {
      log.error(
        { returner: name, err: (err as Error).message },
        `event_return ${name} not loaded: ${(err as Error).message}`,
      );
    }
  }
  const queue = new EventReturnQueue({
    sinks,
    batchSize: config.event_return_queue,
    whitelist: config.event_return_whitelist,
    blacklist: config.event_return_blacklist,
    log,
  });
  const listener = new EventListener(masterEventAddresses(config.sock_dir), ['']);
  const loop = (async () => {
    for await (const ev of listener) queue.push(ev);
  })().catch((err) => log.error({ err }, 'event-return listener failed'));
  return async () => {
    listener.close();
    await loop;
    await queue.flush();
    await Promise.all(
      loader.loaded().map(({ def }) => def.close?.(loader.context(def)).catch(() => undefined)),
    );
  };
});
