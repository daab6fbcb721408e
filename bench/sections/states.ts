/** Issue 20's state figures: 100 file.managed states applied twice, a 1,000-state run and the minion's memory. */
import { details, report } from '../report.js';
import { statesBench } from '../states-bench.js';

export async function statesSection(): Promise<void> {
  const r = await statesBench();
  details.states = r;
  report({
    name: 'states: first / second state.apply of 100 file.managed',
    value: r.firstApply100Ms,
    unit: 'ms',
    method: `salt m1 state.apply, real master and minion; first writes 100 files from salt://, second finds them right: ${r.firstApply100Ms} / ${r.secondApply100Ms} ms`,
  });
  report({
    name: 'states: state.apply of 1,000 chained test states',
    value: r.apply1000Ms,
    unit: 'ms',
    method: `test.succeed_with_changes, each requiring the one before; minion PSS (with its job processes) ${r.minionPssIdleMiB} MiB idle, ${r.minionPssPeakMiB} MiB peak during the run`,
  });
}
