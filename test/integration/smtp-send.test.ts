// smtp.send_msg through a real masterless salt-call against a throwaway SMTP server the test
// starts on 127.0.0.1 (the message text is the one Salt 3006.18 sends for the same call)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-smtp-'));

describe('smtp.send_msg', () => {
  const call = localCaller(root, 'smtp1');
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
    rmSync(root, { recursive: true, force: true });
  });
  const srv = () => `server=127.0.0.1:${sink.port}`;

  it('sends a plain text message to each recipient', async () => {
    const r = await call(
      'smtp.send_msg',
      'a@x, b@y',
      'two\n.dot line',
      'subject=Hi',
      srv(),
      'use_ssl=False',
      'sender=me@x',
    );
    expect(r.local).toBe(true);
    expect(sink.messages.at(-1)).toEqual({
      from: 'me@x',
      to: ['a@x', 'b@y'],
      auth: null,
      data:
        'Content-Type: text/plain; charset="us-ascii"\nMIME-Version: 1.0\nContent-Transfer-Encoding: 7bit\n' +
        'Subject: Hi\nFrom: me@x\nTo: a@x, b@y\n\ntwo\n.dot line\n',
    });
  });

  it('logs in, and answers False when the login or every recipient is refused', async () => {
    const ok = await call(
      'smtp.send_msg',
      'a@x',
      'hi',
      srv(),
      'use_ssl=False',
      'sender=me@x',
      'username=u',
      'password=p',
    );
    expect(ok.local).toBe(true);
    expect(sink.messages.at(-1)?.auth).toBe('u');
    const n = sink.messages.length;
    const bad = await call(
      'smtp.send_msg',
      'a@x',
      'hi',
      srv(),
      'use_ssl=False',
      'sender=me@x',
      'username=bad',
      'password=p',
    );
    expect(bad.local).toBe(false);
    expect((await call('smtp.send_msg', 'no@x', 'hi', srv(), 'use_ssl=False', 'sender=me@x')).local).toBe(
      false,
    );
    expect(sink.messages.length).toBe(n);
    expect((await call('smtp.send_msg', 'no@x,a@x', 'hi', srv(), 'use_ssl=False', 'sender=me@x')).local).toBe(
      true,
    );
    expect(sink.messages.at(-1)?.to).toEqual(['a@x']);
  });

  it('sends attachments as a multipart message', async () => {
    const file = join(root, 'att.txt');
    writeFileSync(file, 'attached\n');
    const r = await call(
      'smtp.send_msg',
      'a@x',
      'see file',
      srv(),
      'use_ssl=False',
      'sender=me@x',
      `attachments=["${file}"]`,
    );
    expect(r.local).toBe(true);
    const data = sink.messages.at(-1)?.data.replace(/={15}\d{19}==/g, 'B') ?? '';
    expect(data).toBe(
      'Content-Type: multipart/mixed; boundary="B"\nMIME-Version: 1.0\nSubject: Message from Salt\nFrom: me@x\nTo: a@x\n\n' +
        '--B\nContent-Type: text/plain; charset="us-ascii"\nMIME-Version: 1.0\nContent-Transfer-Encoding: 7bit\n\nsee file\n' +
        '--B\nContent-Type: application/octet-stream; Name="att.txt"\nMIME-Version: 1.0\nContent-Transfer-Encoding: base64\n' +
        'Content-Disposition: attachment; filename="att.txt"\n\nYXR0YWNoZWQK\n\n--B--\n',
    );
  });

  it('answers False for a server name that does not resolve', async () => {
    const r = await call(
      'smtp.send_msg',
      'a@x',
      'hi',
      'server=nonexistent.invalid',
      'use_ssl=False',
      'sender=me@x',
    );
    expect(r.local).toBe(false);
  });
});
