/**
 * The `beacon:` state argument (Salt's `State.call_beacons` in `salt/state.py`): after every
 * chunk ran and the listeners, each chunk that has a `beacon` key (whatever its value) runs
 * its module's `mod_beacon` as `beacon_<id>`, with the function it came from as `sfun`. The
 * copies keep their requisites, which are looked for among the copies, as in Salt.
 */
import type { Low, Run, Running } from './run-state.js';

/** Salt's `call_beacons`: runs the `mod_beacon` chunks through `callChunks`. */
export async function callBeacons(
  run: Run,
  chunks: readonly Low[],
  running: Running,
  callChunks: (run: Run, chunks: Low[]) => Promise<Running>,
): Promise<Running> {
  const lows: Low[] = chunks
    .filter((chunk) => 'beacon' in chunk)
    .map((chunk) => ({ ...chunk, sfun: chunk.fun, fun: 'mod_beacon', __id__: `beacon_${chunk.__id__}` }));
  if (lows.length === 0) return running;
  return Object.assign(running, await callChunks(run, lows));
}
