/**
 * Salt's `stateconf` state module (`salt/states/stateconf.py`): `set` and `context` do nothing
 * and succeed; the stateconf renderer reads `stateconf.set`'s arguments as template variables
 * and generates `stateconf.set` start and goal states.
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const noOp = defineState({
  args: (z) => z.object({ name: z.string() }),
  varkw: true,
  doc: "A no-op state: the stateconf renderer reads its arguments as the SLS file's context.",
  run: (_ctx, { name }): StateReturn => ({ name, result: true, changes: {}, comment: '' }),
});

export default defineStateModule({
  name: 'stateconf',
  doc: 'No-op states for the stateconf renderer.',
  functions: { set: noOp, context: noOp },
});
