/**
 * Salt's `google_chat` execution module (`salt/modules/google_chat.py`): `send_message` posts
 * `{"text": message}` to a Google Chat space's webhook URL; True when the server answers 200.
 */
import { defineFunction, defineModule } from '../kernel/index.js';
import { pyJson } from '../plugins/renderers/index.js';
import { query } from './http.js';

export default defineModule({
  name: 'google_chat',
  doc: 'Send messages to a Google Chat space through its webhook URL.',
  functions: {
    send_message: defineFunction({
      args: (z) => z.object({ url: z.unknown(), message: z.unknown() }),
      doc: `Send a message to the google chat room specified in the webhook url.

CLI Example:

    salt '*' google_chat.send_message "https://chat.googleapis.com/v1/spaces/example_space/messages?key=example_key" "This is a test message"`,
      run: async (ctx, a) => {
        const result = await query(ctx, String(a.url), {
          method: 'POST',
          data: pyJson({ text: a.message }),
          header_dict: { 'Content-Type': 'application/json' },
          decode: true,
          status: true,
        });
        return (result.status ?? 0) === 200;
      },
    }),
  },
});
