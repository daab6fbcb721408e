/**
 * Issue 6's figures: requests/s and p99 of the REST API at several concurrencies, and SSE
 * fan-out to 1,000 subscribers (fire on the master bus to arrival at the last one).
 */
import { runNetapiBench, runSseFanoutBench } from '../netapi-bench.js';
import { details, report } from '../report.js';

export async function netapiSection(quick: boolean): Promise<void> {
  const figs = await runNetapiBench({ minions: 10, concurrency: quick ? [1, 50] : [1, 50, 500] });
  details.netapi = figs;
  for (const f of figs) {
    const what = `POST / ${f.client} test.ping to 10 minions, ${f.concurrency} clients`;
    report({
      name: `${what}: rate`,
      value: f.rps,
      unit: 'req/s',
      method: `${f.requests} requests, ${f.errors} errors`,
    });
    report({
      name: `${what}: p99`,
      value: f.p99Ms,
      unit: 'ms',
      salt:
        f.client === 'local' && f.concurrency === 1
          ? 217
          : f.client === 'local_async' && f.concurrency === 1
            ? 46
            : undefined,
      method: `p50 ${f.p50Ms.toFixed(1)} ms`,
    });
  }
  const fan = await runSseFanoutBench({ subscribers: 1000, events: quick ? 5 : 11 });
  details.netapiSseFanout = fan;
  report({
    name: `SSE fan-out to ${fan.subscribers} /events subscribers: bus event to last subscriber`,
    value: fan.medianMs,
    unit: 'ms',
    min: fan.minMs,
    max: fan.maxMs,
    method: `median of ${fan.events} events fired on the master bus; first subscriber ${fan.firstMedianMs.toFixed(1)} ms; ${fan.complete}/${fan.events} events reached all ${fan.connected} subscribers`,
  });
}
