/**
 * Salt's `msteams` execution module (`salt/modules/msteams.py`): `post_card` posts a message
 * card (`text`, `title`, `themeColor`) to a Teams incoming webhook, `hook_url` from the call
 * or `msteams.hook_url` / `msteams:hook_url` in the config. True for a 200 or 201 (and, as in
 * Salt, when the request never reached a server: its status is 0), else `{res: False, message}`.
 */
import { defineFunction, defineModule, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyTruthy } from '../kernel/python/index.js';
import { pyJson } from '../plugins/renderers/index.js';
import { serviceOption } from './_service-option.js';
import { query } from './http.js';

export default defineModule({
  name: 'msteams',
  doc: 'Post message cards to a Microsoft Teams incoming webhook (setting: msteams.hook_url).',
  functions: {
    post_card: defineFunction({
      args: (z) =>
        z.object({
          message: z.unknown(),
          hook_url: z.unknown().default(null),
          title: z.unknown().default(null),
          theme_color: z.unknown().default(null),
        }),
      doc: `Send a message to an MS Teams channel.

message: the card's text.
hook_url: the webhook's URL (else msteams.hook_url).
title, theme_color: the card's title and highlight colour (hex), both optional.

CLI Example:

    salt '*' msteams.post_card message="Build is done"`,
      run: async (ctx, a) => {
        let hookUrl = a.hook_url;
        if (!pyTruthy(hookUrl)) {
          hookUrl = await serviceOption(ctx, 'msteams', 'hook_url');
          if (!pyTruthy(hookUrl)) throw new SALT_ERR_INVOCATION('No MS Teams hook_url found.');
        }
        if (!pyTruthy(a.message)) ctx.log.error('message is a required option.');
        const payload = { text: a.message, title: a.title, themeColor: a.theme_color };
        const result = await query(ctx, String(hookUrl), {
          method: 'POST',
          header_dict: { 'Content-Type': 'application/json' },
          data: pyJson(payload, false, false),
          status: true,
        });
        const status = Number(result.status);
        if (status <= 201) return true;
        return { res: false, message: 'body' in result ? result.body : result.status };
      },
    }),
  },
});
