/** Issue 6's figures: requests/s and p99 of the REST API at several concurrencies. */
import { runNetapiBench } from '../netapi-bench.js';
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
    const salt =
      f.concurrency === 1
        ? f.client === 'local'
          ? 217
          : f.client === 'local_async'
            ? 46
            : undefined
        : undefined;
    report({
      name: `${what}: p99`,
      value: f.p99Ms,
      unit: 'ms',
      salt,
      method: `p50 ${f.p50Ms.toFixed(1)} ms`,
    });
  }
}
