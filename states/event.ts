/**
 * Salt's `event` state module (`salt/states/event.py`): fire an event on the master's bus
 * from a state run, through the execution function `event.send`.
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const send = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      data: z.unknown().optional(),
      preload: z.unknown().optional(),
      with_env: z.unknown().default(false),
      with_grains: z.unknown().default(false),
      with_pillar: z.unknown().default(false),
      show_changed: z.boolean().default(true),
    }),
  varkw: true,
  doc: 'Send an event to the Salt Master (tag: name); changes show {tag, data} unless show_changed=False.',
  async run(ctx, a, extra): Promise<StateReturn> {
    const data = a.data ?? null;
    const ret: StateReturn = {
      name: a.name,
      changes: a.show_changed ? { tag: a.name, data } : {},
      result: false,
      comment: '',
    };
    if (ctx.test) return { ...ret, result: null, comment: 'Event would have been fired' };
    const kwargs = Object.fromEntries(
      Object.entries(extra.kwargs).filter(([k]) => !k.startsWith('__') && k !== 'sfun'),
    );
    ret.result = Boolean(
      await ctx.call('event.send', [a.name], {
        ...kwargs,
        data: a.data ?? null,
        preload: a.preload ?? null,
        with_env: a.with_env ?? false,
        with_grains: a.with_grains ?? false,
        with_pillar: a.with_pillar ?? false,
      }),
    );
    ret.comment = 'Event fired';
    return ret;
  },
});

export default defineStateModule({
  name: 'event',
  doc: "Send events through Salt's event system during a state run (event.send, event.wait).",
  functions: {
    send,
    fire_master: send,
    mod_watch: send,
    wait: defineState({
      args: (z) => z.object({ name: z.string(), sfun: z.unknown().optional(), data: z.unknown().optional() }),
      doc: 'Fire an event only when a watch requisite fires (through mod_watch).',
      run: (_ctx, { name }) => ({ name, changes: {}, result: true, comment: '' }),
    }),
  },
});
