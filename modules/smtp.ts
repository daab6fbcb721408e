/**
 * Salt's `smtp` execution module (`salt/modules/smtp.py`): `send_msg` mails a text, with
 * optional attachments, through an SMTP server given directly or by a config profile
 * (`smtp.server`, `smtp.tls`, `smtp.sender`, `smtp.username`, `smtp.password`).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { defineFunction, defineModule, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';
import { SmtpRefused, smtpSend } from './_smtp-client.js';
import { type Attachment, mimeMessage } from './_smtp-mime.js';
import { isMapping } from './_traverse.js';

const text = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : pyStr(v));

export default defineModule({
  name: 'smtp',
  doc: 'Module for sending messages via SMTP.',
  functions: {
    send_msg: defineFunction({
      args: (z) =>
        z.object({
          recipient: z.unknown(),
          message: z.unknown(),
          subject: z.unknown().default('Message from Salt'),
          sender: z.unknown().default(null),
          server: z.unknown().default(null),
          use_ssl: z.unknown().default('True'),
          username: z.unknown().default(null),
          password: z.unknown().default(null),
          profile: z.unknown().default(null),
          attachments: z.unknown().default(null),
        }),
      doc: `Send a message to an SMTP recipient. To send a message to multiple recipients, the recipients should be in a comma-separated string. Designed for use in states.

CLI Examples:

    salt '*' smtp.send_msg 'admin@example.com' 'This is a salt module test' profile='my-smtp-account'
    salt '*' smtp.send_msg 'admin@example.com' 'This is a salt module test' username='myuser' password='verybadpass' sender='admin@example.com' server='smtp.domain.com'
    salt '*' smtp.send_msg 'admin@example.com' 'This is a salt module test' server='smtp.domain.com' attachments="['/var/log/messages']"`,
      run: async (ctx, a) => {
        let { server, use_ssl: useSsl, sender, username, password } = a;
        if (a.profile) {
          const creds = await ctx.call('config.option', [a.profile]);
          if (!isMapping(creds))
            throw new SALT_ERR_EXEC_COMMAND(
              `smtp profile ${pyStr(a.profile)} is not a mapping in the config`,
            );
          server = creds['smtp.server'];
          useSsl = creds['smtp.tls'];
          sender = creds['smtp.sender'];
          username = creds['smtp.username'];
          password = creds['smtp.password'];
        }
        let attachments: Attachment[] | null = null;
        if (Array.isArray(a.attachments) ? a.attachments.length : a.attachments) {
          const files = Array.isArray(a.attachments) ? a.attachments.map(pyStr) : [...pyStr(a.attachments)];
          attachments = files.map((f) => {
            try {
              return { name: basename(f), data: readFileSync(f) };
            } catch (err) {
              throw new SALT_ERR_EXEC_COMMAND(`Unable to read attachment ${f}: ${(err as Error).message}`);
            }
          });
        }
        const recipient = pyStr(a.recipient);
        const data = mimeMessage(
          pyStr(a.message),
          [
            ['Subject', pyStr(a.subject)],
            ['From', pyStr(sender)],
            ['To', recipient],
          ],
          attachments,
        );
        // smtplib connects only when given a host: without one its first command raises
        if (!text(server)) throw pythonError('smtplib.SMTPServerDisconnected', 'please run connect() first');
        try {
          return await smtpSend({
            server: text(server) ?? '',
            ssl: useSsl === 'True' || useSsl === 'true',
            username: text(username) || undefined,
            password: text(password) || undefined,
            sender: pyStr(sender),
            recipients: recipient.split(',').map((r) => r.trim()),
            data,
          });
        } catch (err) {
          if (err instanceof SmtpRefused) {
            ctx.log.debug(err.message);
            return false;
          }
          throw new SALT_ERR_EXEC_COMMAND((err as Error).message);
        }
      },
    }),
  },
});
