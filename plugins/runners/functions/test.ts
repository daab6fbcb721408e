/**
 * Salt's `test` runner (`salt/runners/test.py`): argument echoes, a sleep and a print, to
 * check that runners run and `salt-run` shows what they do.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { defineRunner, defineRunnerFunction, SALT_ERR_RUNNER } from '../../../kernel/index.js';
import { cleanKwargs } from '../../../modules/_invalid-kwargs.js';

export default defineRunner({
  name: 'test',
  doc: 'Runner functions to test the runner system.',
  functions: {
    arg: defineRunnerFunction({
      varargs: true,
      varkw: true,
      doc: "Output the given args and kwargs. Kwargs will be filtered for 'private' keynames.",
      run: (_ctx, _args, extra) => ({ args: extra.args, kwargs: cleanKwargs(extra.kwargs) }),
    }),
    raw_arg: defineRunnerFunction({
      varargs: true,
      varkw: true,
      doc: 'Output the given args and kwargs, unfiltered.',
      run: (_ctx, _args, extra) => ({ args: extra.args, kwargs: extra.kwargs }),
    }),
    metasyntactic: defineRunnerFunction({
      args: z.object({ locality: z.string().default('us') }),
      doc: 'Return common metasyntactic variables for the given locality.',
      run: (_ctx, { locality }) => {
        const lists: Record<string, string[]> = {
          us: [
            'foo',
            'bar',
            'baz',
            'qux',
            'quux',
            'quuz',
            'corge',
            'grault',
            'garply',
            'waldo',
            'fred',
            'plugh',
            'xyzzy',
            'thud',
          ],
          uk: ['wibble', 'wobble', 'wubble', 'flob'],
        };
        return lists[locality] ?? null;
      },
    }),
    stdout_print: defineRunnerFunction({
      doc: "Print 'foo' and return 'bar'.",
      run: () => {
        console.log('foo');
        return 'bar';
      },
    }),
    sleep: defineRunnerFunction({
      args: z.object({ s_time: z.number().nonnegative().default(10) }),
      doc: 'Sleep s_time seconds, print it, and return it.',
      run: async (ctx, { s_time }) => {
        console.log(s_time);
        await sleep(s_time * 1000, undefined, { signal: ctx.signal });
        return s_time;
      },
    }),
    stream: defineRunnerFunction({
      doc: 'Fire a few progress events, then return True.',
      run: async (ctx) => {
        for (let i = 0; i < 3; i++) ctx.progress({ message: `Runner is ${i}` });
        return true;
      },
    }),
    exception: defineRunnerFunction({
      args: z.object({ message: z.string().default('Test exception') }),
      doc: 'Raise an error with the given message (tsalt: tests how a failing runner is reported).',
      run: (_ctx, { message }) => {
        throw new SALT_ERR_RUNNER(message);
      },
    }),
  },
});
