/** Issue 19's pillar figure: compiling 1,000 minions' pillars (time, memory). */
import { pillarBench } from '../pillar-bench.js';
import { details, report } from '../report.js';

export async function pillarSection(quick: boolean): Promise<void> {
  const r = await pillarBench(quick ? 200 : 1000);
  details.pillar = r;
  report({
    name: `pillar: compile for ${r.minions} minions`,
    value: r.totalMs,
    unit: 'ms',
    method: `${r.perMinionMs} ms a minion, two at a time, in-process with the request workers' code (top, Jinja|YAML SLS, includes, merge; no RSA or transport); ~${r.jsonBytesPerMinion} bytes of pillar each; RSS ${r.rssBeforeMiB} → ${r.rssPeakMiB} MiB peak`,
  });
}
