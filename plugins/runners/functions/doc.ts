/**
 * Salt's `doc` runner (`salt/runners/doc.py`): the documentation of runner, wheel and
 * execution functions, as `{mod.fun: doc}`.
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction } from '../../../kernel/index.js';

const match = z.object({ match: z.string().optional() });

export default defineRunner({
  name: 'doc',
  doc: 'Documentation of the runner, wheel and execution functions.',
  functions: {
    runner: defineRunnerFunction({
      args: match,
      doc: 'Return all runner function docs, or those of one module or function.',
      run: (ctx, { match: m }) => ctx.functions.docs('runner', m),
    }),
    wheel: defineRunnerFunction({
      args: match,
      doc: 'Return all wheel function docs, or those of one module or function.',
      run: (ctx, { match: m }) => ctx.functions.docs('wheel', m),
    }),
    execution: defineRunnerFunction({
      args: match,
      doc: 'Collect the execution function docs from every connected minion (sys.doc) and merge them.',
      run: (ctx, { match: m }) => ctx.functions.docs('execution', m),
    }),
  },
});
