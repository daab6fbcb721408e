/**
 * Salt's `test` state module (`salt/states/test.py`): states that succeed or fail, with or
 * without changes, on demand; for trying requisites, orchestration and outputters.
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const PRETEND = { testing: { old: 'Unchanged', new: 'Something pretended to change' } };

function commentOf(extra: Record<string, unknown>, fallback: string): string {
  return typeof extra.comment === 'string' ? extra.comment : fallback;
}

const succeedWithoutChanges = defineState({
  args: (z) => z.object({ name: z.string() }),
  varkw: true,
  doc: 'Returns successful.',
  run: (_ctx, { name }, extra): StateReturn => ({
    name,
    changes: {},
    result: true,
    comment: commentOf(extra.kwargs, 'Success!'),
  }),
});

export default defineStateModule({
  name: 'test',
  doc: 'States that succeed or fail on demand, for trying requisites and outputters.',
  functions: {
    nop: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'A no-op state that does nothing.',
      run: (_ctx, { name }) => ({ name, changes: {}, result: true, comment: 'Success!' }),
    }),
    succeed_without_changes: succeedWithoutChanges,
    fail_without_changes: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Returns failure.',
      run: (ctx, { name }, extra) => ({
        name,
        changes: {},
        result: false,
        comment: ctx.test
          ? "If we weren't testing, this would be a failure!"
          : commentOf(extra.kwargs, 'Failure!'),
      }),
    }),
    succeed_with_changes: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Returns True with a non-empty changes dictionary.',
      run: (ctx, { name }, extra) => ({
        name,
        changes: structuredClone(PRETEND),
        result: ctx.test ? null : true,
        comment: ctx.test
          ? "If we weren't testing, this would be successful with changes"
          : commentOf(extra.kwargs, 'Success!'),
      }),
    }),
    fail_with_changes: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Returns False with a non-empty changes dictionary.',
      run: (ctx, { name }, extra) => ({
        name,
        changes: structuredClone(PRETEND),
        result: ctx.test ? null : false,
        comment: ctx.test
          ? "If we weren't testing, this would be failed with changes"
          : commentOf(extra.kwargs, 'Failure!'),
      }),
    }),
  },
});
