/**
 * Salt's `event` runner (`salt/runners/event.py`): fire an event on the master bus.
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction } from '../../../kernel/index.js';

export default defineRunner({
  name: 'event',
  doc: 'Fire events on the master event bus.',
  functions: {
    send: defineRunnerFunction({
      args: z.object({ tag: z.string().min(1), data: z.record(z.string(), z.unknown()).optional() }),
      varkw: true,
      doc: 'Send an event with the given tag and data (a map, plus any keyword arguments): salt-run event.send my/tag \'{"foo": "bar"}\'',
      run: (ctx, { tag, data }, extra) => {
        const payload: Record<string, unknown> = { ...(data ?? {}) };
        for (const [k, v] of Object.entries(extra.kwargs)) if (!k.startsWith('__')) payload[k] = v;
        ctx.fireEvent(tag, payload);
        return true;
      },
    }),
  },
});
