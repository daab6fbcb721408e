/** Issue 7's event-bus figures: events/s with 1 and 100 subscribers, memory with a stalled one. */
import { eventBusBench } from '../event-bus-bench.js';
import { details, print, report } from '../report.js';

export async function eventBusSection(quick: boolean): Promise<void> {
  const r = await eventBusBench({ quick, log: print });
  details.eventBus = r;
  for (const t of r.throughput) {
    report({
      name: `event bus: events/s delivered to ${t.subscribers} subscriber${t.subscribers > 1 ? 's' : ''}`,
      value: t.eventsPerSec,
      unit: 'ev/s',
      method: `${t.events} events fired from one process on the master bus, until every subscriber (same process) had each one; ${t.missed} missed in all`,
    });
  }
  const s = r.stall;
  const dropped = s.stalledDropped.reported
    ? `its events were dropped for it alone (${s.stalledMissed} missed; the publisher recorded its lag report, reason ${s.stalledDropped.reason})`
    : `it missed ${s.stalledMissed} and the publisher recorded no lag report`;
  report({
    name: `event bus: publisher RSS, a subscriber stalled ${s.seconds} s`,
    value: s.rssMaxMiB,
    unit: 'MiB',
    method: `highest RSS of the process hosting the bus (the request server) while ${s.fired} events were fired at 2000/s and one subscriber read nothing: ${s.rssBeforeMiB} MiB before, every 5 s [${s.rssDuringMiB.join(', ')}] (last-half growth ${s.rssGrowthLastHalfMiB} MiB), ${s.rssEndMiB} once it caught up, ${s.rssAfterMiB} after it left; ${dropped}; the reading one missed ${s.fastMissed}; per-subscriber bound ${s.subscriberHwm} events`,
  });
}
