/**
 * Salt's `smtp` state module (`salt/states/smtp.py`): `smtp.send_msg` mails `name` through the
 * `smtp` execution module (a config profile names the server), every time it runs; under
 * test=True it only says it would.
 */
import { pyStr } from '../kernel/util.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const send_msg = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      recipient: z.unknown(),
      subject: z.unknown(),
      sender: z.unknown().default(null),
      profile: z.unknown().default(null),
      use_ssl: z.unknown().default('True'),
      attachments: z.unknown().default(null),
    }),
  doc: `Send a message via SMTP

name: the message to send.
recipient: who to send it to (several: a comma-separated string).
subject: its subject.
sender: its From address; profile: the config profile naming the server (smtp.server, smtp.tls,
smtp.sender, smtp.username, smtp.password). One of the two is needed.
use_ssl: STARTTLS ('True', the default).
attachments: a list of files to attach.`,
  async run(ctx, a): Promise<StateReturn> {
    const { name } = a;
    const ret: StateReturn = { name, result: null, changes: {}, comment: '' };
    const recipient = pyStr(a.recipient);
    if (a.profile === null && a.sender === null)
      return {
        ...ret,
        result: false,
        comment: 'Missing parameter sender or profile for state smtp.send_msg',
      };
    if (ctx.test) return { ...ret, comment: `Need to send message to ${recipient}: ${name}` };
    const sent = await ctx.call('smtp.send_msg', [], {
      message: name,
      recipient: a.recipient,
      profile: a.profile,
      subject: a.subject,
      sender: a.sender,
      use_ssl: a.use_ssl,
      attachments: a.attachments,
    });
    if (!sent) return { ...ret, result: false, comment: `Unable to send message to ${recipient}: ${name}` };
    const atts = a.attachments as unknown;
    if (Array.isArray(atts) ? atts.length : atts) {
      const list = (Array.isArray(atts) ? atts : [...pyStr(atts)]).map((f) => pyStr(f)).join(', ');
      return {
        ...ret,
        result: true,
        comment: `Sent message to ${recipient} with attachments (${list}): ${name}`,
      };
    }
    return { ...ret, result: true, comment: `Sent message to ${recipient}: ${name}` };
  },
});

export default defineStateModule({
  name: 'smtp',
  doc: 'Sending messages via SMTP.',
  functions: { send_msg },
});
