/**
 * Salt's `mattermost` execution module (`salt/modules/mattermost.py` over
 * `salt/utils/mattermost.py`): `post_message` posts to an incoming webhook,
 * `<api_url>/hooks/<hook>`, a form body `payload=<json>` with the message as fixed-width text.
 * Settings come from the call, else `mattermost.<key>` / `mattermost:<key>` in the config.
 * As in Salt it answers True whenever the request went out, whatever the server said.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyTruthy } from '../kernel/python/index.js';
import { pyJson } from '../plugins/renderers/index.js';
import { pythonError, pyValueClass } from './_py-exception.js';
import { serviceOption } from './_service-option.js';
import { query } from './http.js';

/** `urljoin(urljoin(api_url, '/hooks/'), hook)`; a base that is no URL leaves the relative path. */
function hookUrl(apiUrl: string, hook: string): string {
  try {
    return new URL(hook, new URL('/hooks/', apiUrl)).href;
  } catch {
    return `/hooks/${hook}`;
  }
}

/** `salt.utils.mattermost.query`: the POST, then its answer as Salt reads it. */
async function postHook(ctx: ExecContext, apiUrl: string, hook: string, data: string): Promise<unknown> {
  const result = await query(ctx, hookUrl(apiUrl, hook), {
    method: 'POST',
    data,
    decode: true,
    status: true,
  });
  if (result.status === 200) return { message: `Message posted ${data} correctly`, res: true };
  if (result.status === 204) return true;
  if (result.dict !== undefined) return { message: 'Message not posted', res: true };
  return { message: 'invalid_auth', res: false };
}

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
        if (typeof a.message !== 'string')
          throw pythonError(
            'TypeError',
            `can only concatenate str (not "${pyValueClass(a.message)}") to str`,
          );
        const parameters: Record<string, unknown> = {};
        if (pyTruthy(channel)) parameters.channel = channel;
        if (pyTruthy(username)) parameters.username = username;
        parameters.text = `\`\`\`${a.message}\`\`\``;
        const data = `payload=${pyJson(parameters, false, false)}`;
        return pyTruthy(await postHook(ctx, String(apiUrl), String(hook), data));
      },
    }),
  },
});
