/**
 * The master event bus child (Salt's `EventPublisher`).
 */

import { EventPublisher, masterEventAddresses } from '../../bus/event-bus.js';
import type { ResolvedMasterConfig } from '../../config/index.js';
import { runChild } from '../../daemon/child-runtime.js';

await runChild<ResolvedMasterConfig>('event-publisher', async ({ config, log }) => {
  const bus = new EventPublisher();
  await bus.bind(masterEventAddresses(config.sock_dir));
  const done = bus.run().catch((err) => log.error({ err }, 'event bus failed'));
  log.info({ sock_dir: config.sock_dir }, 'master event bus up');
  return async () => {
    bus.close();
    await done;
  };
});
