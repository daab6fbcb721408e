/**
 * A throwaway SMTP server on 127.0.0.1 for tests: it offers SIZE and AUTH PLAIN LOGIN, takes
 * any login but the user "bad" (by either mechanism), refuses the recipient "no@x", and keeps each message's
 * envelope and text (CRLF turned to LF, dot-stuffing undone).
 */
import { createServer, type Server } from 'node:net';

export interface SinkMessage {
  from: string;
  to: string[];
  auth: string | null;
  data: string;
}

export interface SmtpSink {
  port: number;
  messages: SinkMessage[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const server: Server = createServer((s) => {
    s.setEncoding('latin1');
    let buf = '';
    let data: string | null = null;
    let loginPassword = false;
    let msg: SinkMessage = { from: '', to: [], auth: null, data: '' };
    const say = (t: string) => s.write(`${t}\r\n`);
    say('220 sink ESMTP');
    s.on('data', (d: string) => {
      buf += d;
      for (let i = buf.indexOf('\r\n'); i >= 0; i = buf.indexOf('\r\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (data !== null) {
          if (line === '.') {
            messages.push({ ...msg, data });
            msg = { from: '', to: [], auth: msg.auth, data: '' };
            data = null;
            say('250 queued');
          } else data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          continue;
        }
        if (loginPassword) {
          loginPassword = false;
          say(msg.auth === 'bad' ? '535 authentication failed' : '235 ok');
          continue;
        }
        const verb = line.split(' ')[0]!.toLowerCase();
        if (verb === 'ehlo') say('250-sink\r\n250-SIZE 1000000\r\n250 AUTH PLAIN LOGIN');
        else if (verb === 'auth') {
          // PLAIN carries "\0user\0password"; LOGIN the user, then the password on the next line
          const [, mech, first = ''] = line.split(' ');
          const decoded = Buffer.from(first, 'base64').toString();
          msg.auth = mech === 'PLAIN' ? (decoded.split('\0')[1] ?? '') : decoded;
          if (mech === 'LOGIN') loginPassword = true;
          say(
            mech === 'LOGIN'
              ? '334 UGFzc3dvcmQ6'
              : msg.auth === 'bad'
                ? '535 authentication failed'
                : '235 ok',
          );
        } else if (verb === 'mail') {
          msg.from = /<(.*)>/.exec(line)?.[1] ?? '';
          say('250 ok');
        } else if (verb === 'rcpt') {
          const to = /<(.*)>/.exec(line)?.[1] ?? '';
          if (to === 'no@x') say('550 no such user');
          else {
            msg.to.push(to);
            say('250 ok');
          }
        } else if (verb === 'data') {
          data = '';
          say('354 go ahead');
        } else if (verb === 'quit') {
          say('221 bye');
          s.end();
        } else say('502 not implemented');
      }
    });
    s.on('error', () => {});
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { port, messages, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}
