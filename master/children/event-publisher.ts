/**
 * The master event bus child (Salt's `EventPublisher`): `max_event_size` enforced on every
 * event, slow subscribers dropped for (never waited for), counters for `salt-run bus.stats`.
 */

import { masterEventAddresses } from '../../kernel/bus/event-bus.js';
import { EventPublisher } from '../../kernel/bus/event-publisher.js';
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { runChild } from '../../kernel/daemon/child-runtime.js';

await runChild<ResolvedMasterConfig>('event-publisher', async ({ config, log }) => {
  const bus = new EventPublisher({ maxEventSize: config.max_event_size, log });
  await bus.bind(masterEventAddresses(config.sock_dir));
  const done = bus.run().catch((err) => log.error({ err }, 'event bus failed'));
  log.info({ sock_dir: config.sock_dir, max_event_size: config.max_event_size }, 'master event bus up');
  return async () => {
    bus.close();
    await done;
  };
});
