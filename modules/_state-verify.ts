/**
 * Salt's `State.verify_data` as `state.single` and `state.low` run it before the call: the
 * errors (a missing `state`/`fun`/`name`, a state function that does not exist, an argument it
 * cannot do without) come back as a list with retcode 1, not as a failed state.
 */
import type { ExecContext } from '../kernel/index.js';
import type { LowChunk } from '../plugins/states/index.js';
import { verifyData } from '../plugins/states/runtime/index.js';

/** The errors of `chunk` (checked on a copy: the run checks it again). */
export async function verifyChunk(ctx: ExecContext, chunk: LowChunk): Promise<string[]> {
  const states = ctx.states;
  if (!states) throw new Error('this minion has no state loader');
  return verifyData(states, { ...chunk } as Parameters<typeof verifyData>[1]);
}
