/**
 * Runs a run's low chunks in order (Salt's `State.call_chunks`, then `call_listen` and
 * `call_beacons`, as `State.call_high` does in `salt/state.py`): states disabled by the
 * `state_runs_disabled` grain are answered first, each chunk runs once after its requisites
 * (unless `state.pause` holds it or `state.soft_kill` ends the run), a failhard failure ends
 * the run, parallel states are waited for, then the listeners run, then the `mod_beacon`s.
 *
 * The chunks may be those the compiler gives `call_chunks` (after `requisite_in`) or those
 * `state.show_lowstate` prints (the `_in` forms still on their sources): see requisite-in.ts.
 */
import { fnmatch } from '../../../modules/_fnmatch.js';
import { deepCopy } from '../compile/py.js';
import type { LowChunk, RunContext, StateRunResult } from '../types.js';
import { callBeacons } from './beacons.js';
import { callChunk, checkFailhard } from './chunk.js';
import { callListen } from './listen.js';
import { checkPause, clearPause } from './pause.js';
import { applyRequisiteIn } from './requisite-in.js';
import { type Low, Run, type Running } from './run-state.js';
import { genTag } from './tag.js';

/** The chunks the `state_runs_disabled` grain turns off, answered as Salt answers them. */
function takeDisabled(run: Run, chunks: Low[]): Running {
  const disabled: Running = {};
  const patterns = run.rc.exec.grains.state_runs_disabled;
  if (!Array.isArray(patterns)) return disabled;
  for (const low of [...chunks]) {
    const fun = `${low.state}.${low.fun}`;
    const pat = patterns.find((p) => fnmatch(fun, String(p)));
    if (pat === undefined) continue;
    disabled[genTag(low)] = {
      changes: {},
      result: false,
      comment: `The state function "${fun}" is currently disabled by "${pat}", to re-enable, run state.enable ${pat}.`,
      __run_num__: run.nextRunNum(),
      __sls__: low.__sls__ ?? null,
    };
    chunks.splice(chunks.indexOf(low), 1);
  }
  return disabled;
}

/** Salt's `call_chunks`. */
export async function callChunks(run: Run, chunks: Low[]): Promise<Running> {
  const disabled = takeDisabled(run, chunks);
  let running: Running = {};
  for (const low of chunks) {
    if (run.failhardHit) {
      run.failhardHit = false;
      break;
    }
    if (run.rc.exec.signal.aborted) break;
    if (!(genTag(low) in running)) {
      if ((await checkPause(run, low)) === 'kill') break;
      running = await callChunk(run, low, running, chunks);
      if (checkFailhard(run, low, running)) break;
    }
    run.active = new Set();
  }
  await run.reconcile(Object.values(running));
  return { ...disabled, ...running };
}

/**
 * Runs low chunks, compiled and ordered, as Salt's state system does, and returns the
 * results by tag (`state_|-id_|-name_|-fun`). Fires `rc.progress(tag, entry)` after each
 * state. The chunks given are not changed.
 */
export async function runChunks(chunks: readonly LowChunk[], rc: RunContext): Promise<StateRunResult> {
  const run = new Run(rc);
  // a deep copy that keeps value classes (an integral float stays a float)
  const lows = deepCopy(chunks) as unknown as Low[];
  applyRequisiteIn(lows);
  let ret = await callChunks(run, lows);
  ret = await callListen(run, lows, ret, callChunks);
  ret = await callBeacons(run, lows, ret, callChunks);
  await clearPause(run);
  return ret as unknown as StateRunResult;
}
