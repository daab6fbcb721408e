/**
 * tsalt's `bus` runner (Salt has none): the master event bus's counters. `salt-run bus.stats`
 * asks the event publisher (event `tsalt/bus/stats/request`, answer `tsalt/bus/stats`) for
 * events in and out, events trimmed or dropped by reason (`max_event_size`, data that is not
 * a map, forged minion tags), live tag-prefix subscriptions, the subscribers that read too
 * slowly and how many events were dropped for each, and the publisher's memory.
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction } from '../../../kernel/index.js';
import { masterEventAddresses, requestBusStats } from '../../../kernel/services.js';

export default defineRunner({
  name: 'bus',
  doc: "The master event bus's counters (tsalt).",
  functions: {
    stats: defineRunnerFunction({
      args: z.object({ timeout: z.coerce.number().positive().default(5) }),
      doc: 'Counters of the master event bus: events in/out, trimmed, dropped by reason, subscriptions, slow subscribers and what they missed: salt-run bus.stats',
      run: async (ctx, { timeout }) =>
        requestBusStats(masterEventAddresses(String(ctx.opts.sock_dir)), timeout * 1000),
    }),
  },
});
