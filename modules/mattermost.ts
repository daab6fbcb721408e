/**
 * Salt's `mattermost` execution module (`salt/modules/mattermost.py` over
 * `salt/utils/mattermost.py`): `post_message` posts to an incoming webhook,
 * `<api_url>/hooks/<hook>`, a form body `payload=<json>` with the message as fixed-width text.
 * Settings come from the call, else `mattermost.<key>` / `mattermost:<key>` in the config.
 * As in Salt it answers True whenever the request went out, whatever the server said.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyTruthy } from '../kernel/python/index.js';
import { postToMattermost } from './_mattermost-post.js';
import { serviceOption } from './_service-option.js';

/** A setting from the call, else from the config; `required` names Salt's error when neither has it. */
async function setting(ctx: ExecContext, given: unknown, key: string, required?: string): Promise<unknown> {
  if (pyTruthy(given)) return given;
  const v = await serviceOption(ctx, 'mattermost', key);
  if (required && !pyTruthy(v)) throw new SALT_ERR_INVOCATION(required);
  return v;
}

export default defineModule({
  name: 'mattermost',
  doc: 'Send messages to Mattermost through an incoming webhook (settings: mattermost.hook, mattermost.api_url, mattermost.channel, mattermost.username).',
  functions: {
    post_message: defineFunction({
      args: (z) =>
        z.object({
          message: z.unknown(),
          channel: z.unknown().default(null),
          username: z.unknown().default(null),
          api_url: z.unknown().default(null),
          hook: z.unknown().default(null),
        }),
      doc: `Send a message to a Mattermost channel.

message: the text, posted as fixed-width text.
channel, username: where and as whom (else mattermost.channel / mattermost.username).
api_url, hook: the server and the webhook's id (else mattermost.api_url / mattermost.hook).
Returns True once the request is sent.

CLI Example:

    salt '*' mattermost.post_message message='Build is done'`,
      run: async (ctx, a) => {
        const apiUrl = await setting(ctx, a.api_url, 'api_url', 'No Mattermost API URL found');
        const hook = await setting(ctx, a.hook, 'hook', 'No Mattermost Hook found');
        const username = await setting(ctx, a.username, 'username');
        const channel = await setting(ctx, a.channel, 'channel');
        if (!pyTruthy(a.message)) ctx.log.error('message is a required option.');
        return pyTruthy(await postToMattermost(ctx, { message: a.message, channel, username, apiUrl, hook }));
      },
    }),
  },
});
