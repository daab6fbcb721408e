/**
 * Issue 6's figures: requests/s, p50 and p99 of the REST API at 1, 50 and 500 concurrent clients, and SSE
 * fan-out to 1,000 subscribers (fire on the master bus to arrival at the last one).
 */
import { runNetapiBench, runSseFanoutBench } from '../netapi-bench.js';
import { details, report } from '../report.js';

export async function netapiSection(quick: boolean): Promise<void> {
  // quick mode keeps every level, with one request per client (at least 20) instead of four
  const figs = await runNetapiBench({
    minions: 10,
    concurrency: [1, 50, 500],
    requestsPerLevel: quick ? (n) => Math.max(20, n) : undefined,
  });
  details.netapi = figs;
  for (const f of figs) {
    const what = `POST / ${f.client} test.ping to 10 minions, ${f.concurrency} clients`;
    // salt-api 3006 on this machine, one client, 2 minions (medians): issue 6's figures
    const salt =
      f.concurrency !== 1
        ? undefined
        : f.client === 'local'
          ? 217
          : f.client === 'local_async'
            ? 46
            : undefined;
    report({
      name: `${what}: rate`,
      value: f.rps,
      unit: 'req/s',
      method: `${f.requests} requests, ${f.errors} errors`,
    });
    report({
      name: `${what}: p50`,
      value: f.p50Ms,
      unit: 'ms',
      salt,
      method:
        salt === undefined ? 'median latency' : 'median latency; Salt figure: salt-api 3006 with 2 minions',
    });
    report({ name: `${what}: p99`, value: f.p99Ms, unit: 'ms', method: '99th percentile latency' });
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
