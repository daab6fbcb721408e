/**
 * Salt's `msteams` state module (`salt/states/msteams.py`): `msteams.post_card` posts a card
 * through `msteams.post_card` each time it runs; under `test=True` it only says what it would
 * send. It changes nothing on the minion, so its changes are always empty.
 */
import { SaltError } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/python/index.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

export default defineStateModule({
  name: 'msteams',
  doc: 'Send a message card to a Microsoft Teams channel (msteams.post_card).',
  functions: {
    post_card: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          message: z.unknown(),
          hook_url: z.unknown().default(null),
          title: z.unknown().default(null),
          theme_color: z.unknown().default(null),
        }),
      doc: `Send a message to a Microsoft Teams channel.

message: the text to send (required).
hook_url: the channel's webhook URL, unless msteams.hook_url is set in the config.
title: the card's title. theme_color: its highlight colour, a hex code.`,
      async run(ctx, a): Promise<StateReturn> {
        const ret: StateReturn = { name: a.name, changes: {}, result: false, comment: '' };
        if (ctx.test)
          return {
            ...ret,
            result: null,
            comment: `The following message is to be sent to Teams: ${pyStr(a.message)}`,
          };
        if (!pyTruthy(a.message)) return { ...ret, comment: `Teams message is missing: ${pyStr(a.message)}` };
        let result: unknown;
        try {
          result = await ctx.call('msteams.post_card', [], {
            message: a.message,
            hook_url: a.hook_url,
            title: a.title,
            theme_color: a.theme_color,
          });
        } catch (err) {
          if (!(err instanceof SaltError && err.code === 'SALT_ERR_INVOCATION')) throw err;
          return { ...ret, comment: `Failed to send message (${err.message}): ${a.name}` };
        }
        if (result === true) return { ...ret, result: true, comment: `Sent message: ${a.name}` };
        const message = (result as { message?: unknown }).message;
        return { ...ret, comment: `Failed to send message (${pyStr(message)}): ${a.name}` };
      },
    }),
  },
});
