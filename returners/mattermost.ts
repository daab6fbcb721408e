/**
 * Salt's `mattermost` returner (`salt/returners/mattermost_returner.py`): each return, and
 * each event of `event_return`, posted to a Mattermost incoming webhook as fixed-width text
 * (`id`, `function`, `function args`, `jid`, `return`, one per line, in Python's str()).
 * Options: `mattermost.hook` (required), `mattermost.api_url`, `mattermost.channel`,
 * `mattermost.username`, or the same in the job's `ret_kwargs`.
 */
import { z } from 'zod';
import { defineReturner } from '../kernel/index.js';
import { pyStr } from '../kernel/python/index.js';
import { postToMattermost } from '../modules/_mattermost-post.js';
import { withPyTuples } from '../outputters/py-tuples.js';

const options = z.object({
  hook: z.unknown().optional(),
  api_url: z.unknown().optional(),
  channel: z.unknown().optional(),
  username: z.unknown().optional(),
});

const target = (o: z.output<typeof options>) => ({
  channel: o.channel ?? null,
  username: o.username ?? null,
  apiUrl: o.api_url ?? null,
  hook: o.hook,
});

export default defineReturner({
  name: 'mattermost',
  doc: 'Posts each return (and each event) to a Mattermost incoming webhook.',
  options,
  async returner(ret, ctx) {
    if (!ctx.options.hook) {
      ctx.log.error('mattermost.hook not defined in salt config');
      return;
    }
    const r = ret as unknown as Record<string, unknown>;
    const message =
      `id: ${pyStr(r.id ?? null)}\r\nfunction: ${pyStr(r.fun ?? null)}\r\n` +
      `function args: ${pyStr(r.fun_args ?? null)}\r\njid: ${pyStr(r.jid ?? null)}\r\n` +
      `return: ${pyStr(withPyTuples(r.return ?? null))}\r\n`;
    await postToMattermost(ctx, { message, ...target(ctx.options) });
  },
  async eventReturn(events, ctx) {
    for (const event of events) {
      let message = `tag: ${event.tag}\r\n`;
      for (const [k, v] of Object.entries(event.data ?? {})) message += `${k}: ${pyStr(v)}\r\n`;
      await postToMattermost(ctx, { message, ...target(ctx.options) });
    }
  },
});
