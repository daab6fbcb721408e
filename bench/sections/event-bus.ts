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
  report({
    name: `event bus: publisher RSS, a subscriber stalled ${s.seconds} s`,
    value: s.rssMaxMiB,
    unit: 'MiB',
    method: `highest RSS of the event-publisher child (${s.rssBeforeMiB} MiB before) while ${s.fired} events were fired at 2000/s and one subscriber read nothing; it missed ${s.stalledMissed}, the reading one ${s.fastMissed}; per-subscriber bound ${s.subscriberHwm} events`,
  });
}
