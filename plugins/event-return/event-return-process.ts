/**
 * The event-return process (Salt's `EventReturn`): listens to the whole master bus and feeds
 * the `eventReturn` of the returners `event_return` names, in batches (event-return-queue.ts),
 * flushing what is left when it stops.
 */
import {
  type DaemonProcessContext,
  masterReturnerLoader,
  type ResolvedMasterConfig,
} from '../../kernel/index.js';
import { returnerNames, withinTime } from '../../kernel/services.js';
import { BUILTIN_RETURNERS } from '../builtin-dirs.js';
import { EventReturnQueue, type EventSink } from './event-return-queue.js';
import { eventReturnOptions } from './options.js';

export async function startEventReturn(ctx: DaemonProcessContext): Promise<() => Promise<void>> {
  const config = ctx.config as unknown as ResolvedMasterConfig;
  const own = eventReturnOptions.read(config);
  const log = ctx.log;
  const loader = masterReturnerLoader(config, log, BUILTIN_RETURNERS);
  const sinks: EventSink[] = [];
  for (const name of returnerNames(own.event_return)) {
    try {
      const { def } = await loader.get(name);
      if (!def.eventReturn) {
        log.error({ returner: name }, `event_return ${name}: this returner has no event_return function`);
        continue;
      }
      const returnerCtx = loader.context(def);
      const eventReturn = def.eventReturn.bind(def);
      sinks.push({
        name,
        send: (events) => withinTime(eventReturn(events, returnerCtx), 30_000, name, 'eventReturn'),
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
    batchSize: own.event_return_queue,
    whitelist: own.event_return_whitelist,
    blacklist: own.event_return_blacklist,
    log,
  });
  const events = ctx.listen(['']);
  const loop = (async () => {
    for await (const ev of events) queue.push(ev);
  })().catch((err) => log.error({ err }, 'event-return listener failed'));
  return async () => {
    events.close();
    await loop;
    await queue.flush();
    await Promise.all(
      loader.loaded().map(({ def }) => def.close?.(loader.context(def)).catch(() => undefined)),
    );
  };
}
