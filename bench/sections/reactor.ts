/** Issue 7's reactor figure: latency from an event to the job the reactor started. */
import { reactorBench } from '../reactor-bench.js';
import { details, print, report } from '../report.js';

export async function reactorSection(quick: boolean): Promise<void> {
  const r = await reactorBench({ events: quick ? 20 : 50, log: print });
  details.reactor = r;
  report({
    name: 'reactor: event to salt/job/<jid>/new (p50)',
    value: r.jobP50,
    unit: 'ms',
    method: `${r.events} events fired on the master bus, each matched by a local reaction; p95 ${r.jobP95.toFixed(0)} ms, ${r.lost} lost`,
  });
  report({
    name: 'reactor: time inside the reactor (p50)',
    value: r.reactorP50,
    unit: 'ms',
    method: 'event received → job published, from the reactor trace events',
  });
}
