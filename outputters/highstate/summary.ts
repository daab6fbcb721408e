/**
 * The block under each host's states (salt/output/highstate.py, end of `_format_host`):
 * `Summary for <host>`, Succeeded (with `unchanged=`/`changed=`), Failed, the optional
 * percentages and warnings count, `Total states run` and, with `state_output_profile`,
 * `Total run time` (in seconds from 1000 ms on).
 */
import { pyFloatRepr, pyIntRepr } from '../../kernel/python/index.js';
import type { HighstateContext } from './context.js';
import { pyFixed } from './py-format.js';

/** What the states of one host added up to. */
export interface HostTally {
  /** Count per result, keyed `True`, `False`, `None` (or another result's str), and `warnings`. */
  counts: Map<string, number>;
  nchanges: number;
  /** Durations of the states run in sequence, and of the parallel ones. */
  durations: number[];
  parallel: number[];
}

const LABEL_WIDTH = 'Succeeded'.length;

/** Python's `round(x, 2)` printed as `str(float)`. */
function pct(x: number): string {
  return pyFloatRepr(Number(pyFixed(x, 2)));
}

/** The summary lines for `host`. */
export function summaryLines(ctx: HighstateContext, host: string, t: HostTally): string[] {
  const c = ctx.colors;
  const get = (k: string): number => t.counts.get(k) ?? 0;
  const countWidth = Math.max(0, ...[...t.counts.values()].map((n) => pyIntRepr(n).length));
  const width = LABEL_WIDTH + countWidth + 2;
  const color = (col: string, text: string): string => `${col}${text}${c.ENDC}`;
  const counts = (label: string, count: string): string =>
    `${label}: ${count.padStart(width - (label.length + 2))}`;
  const out = [color(c.CYAN, `\nSummary for ${host}\n${'-'.repeat(width)}`)];

  const stats: string[] = [];
  if (get('None') > 0) stats.push(color(c.LIGHT_YELLOW, `unchanged=${get('None')}`));
  if (t.nchanges > 0) stats.push(color(c.GREEN, `changed=${t.nchanges}`));
  const succeeded = color(c.GREEN, counts('Succeeded', String(get('True') + get('None'))));
  out.push(stats.length ? `${succeeded} (${stats.join(', ')})` : succeeded);
  const failed = get('False');
  out.push(color(failed ? c.RED : c.CYAN, counts('Failed', String(failed))));

  let total = 0;
  for (const n of t.counts.values()) total += n;
  total -= get('warnings');
  if (ctx.pct && total !== 0) {
    out.push(color(c.GREEN, counts('Success %', pct(((get('True') + get('None')) / total) * 100))));
    out.push(color(failed ? c.RED : c.CYAN, counts('Failure %', pct((failed / total) * 100))));
  }
  if (get('warnings')) out.push(color(c.LIGHT_RED, counts('Warnings', String(get('warnings')))));
  out.push(color(c.CYAN, `${'-'.repeat(width)}\nTotal states run: ${String(total).padStart(width - 7)}`));

  if (ctx.profile) {
    let sum = 0;
    for (const d of t.durations) sum += d;
    if (t.parallel.length) sum += Math.max(...t.parallel);
    let unit = 'ms';
    if (sum > 999) {
      sum /= 1000;
      unit = 's';
    }
    out.push(color(c.CYAN, `Total run time: ${pyFixed(sum, 3).padStart(width - 5)} ${unit}`));
  }
  return out;
}
