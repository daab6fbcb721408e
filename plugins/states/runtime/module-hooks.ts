/**
 * The state-module hooks run before a chunk (Salt's `State._mod_init`, `_mod_aggregate` and
 * `_aggregate_requisites` in `salt/state.py`): a module's `mod_init` runs once per run before
 * its first chunk (it receives `{ low }`; a truthy return marks the module done), and with
 * `state_aggregate` (the option, or `aggregate:` on the chunk) a module's `mod_aggregate`
 * receives `{ low, chunks, running }` and returns the chunk to run, merged with the
 * requisites of the chunks it absorbed.
 */
import type { StateReturn } from '../define.js';
import { INTERNAL_KEYWORDS, REQUISITE_KEYWORDS } from '../keywords.js';
import type { Low, Run, Running } from './run-state.js';

const REQ_AND_IN = [...REQUISITE_KEYWORDS].concat(
  [...INTERNAL_KEYWORDS].filter((k) => k.endsWith('_in') && !k.startsWith('use')),
);

/** Salt's `_mod_init`. */
export async function modInit(run: Run, low: Low): Promise<void> {
  if (run.modInit.has(low.state)) return;
  if (!(await run.rc.states.has(`${low.state}.${low.fun}`))) return;
  const fun = `${low.state}.mod_init`;
  if (!(await run.rc.states.has(fun))) return;
  const ret: unknown = await run.rc.states.call(fun, { low }, { test: run.rc.test, low, pillar: run.pillar });
  if (ret) run.modInit.add(low.state);
}

function aggregateRequisites(low: Low, chunks: readonly Low[]): Low {
  const merged: Record<string, unknown[]> = {};
  for (const chunk of chunks) {
    if (chunk.state !== low.state || !chunk.__agg__ || low.name === chunk.name) continue;
    for (const req of REQ_AND_IN) {
      if (!(req in chunk)) continue;
      merged[req] = [...(merged[req] ?? []), ...[chunk[req]].flat()];
    }
  }
  return Object.assign(low, merged);
}

/** Salt's `_mod_aggregate`. */
export async function modAggregate(
  run: Run,
  low: Low,
  running: Running,
  chunks: readonly Low[],
): Promise<Low> {
  let option: unknown = 'aggregate' in low ? low.aggregate : run.rc.exec.opts.state_aggregate;
  if (option === true) option = [low.state];
  if (!Array.isArray(option) || !option.includes(low.state) || low.__agg__) return low;
  const fun = `${low.state}.mod_aggregate`;
  const known = run.aggregators.get(fun);
  if (known === false) return low;
  const has = known ?? (await run.rc.states.has(fun));
  run.aggregators.set(fun, has);
  if (!has) return low;
  try {
    low.__agg__ = true;
    const next: unknown = await run.rc.states.call(
      fun,
      { low, chunks, running },
      { test: run.rc.test, low, pillar: run.pillar, running: running as Record<string, StateReturn> },
    );
    return aggregateRequisites(next && typeof next === 'object' ? (next as Low) : low, chunks);
  } catch (err) {
    run.rc.exec.log.error({ err }, `Failed to execute aggregate for state ${low.state}`);
    return low;
  }
}
