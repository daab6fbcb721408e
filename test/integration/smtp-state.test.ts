// The smtp.send_msg state through a real masterless salt-call of tsalt against a throwaway SMTP
// server on 127.0.0.1, named by a config profile as Salt's state expects; the returns are those
// of Salt 3006.18's salt-call --local for the same calls (/tmp/gpg21 harness).
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-smtpst-'));

describe('smtp.send_msg state', () => {
  const call = localCaller(root, 'smtpst1');
  let sink: SmtpSink;
  const state = async (...args: string[]) => {
    const r = await call('state.single', 'smtp.send_msg', ...args);
    const ret = Object.values(r.local as Record<string, Record<string, unknown>>)[0] ?? {};
    return { name: ret.name, result: ret.result, changes: ret.changes, comment: ret.comment };
  };
  beforeAll(async () => {
    sink = await startSmtpSink();
    appendFileSync(
      join(call.etc, 'minion'),
      `mysmtp:\n  smtp.server: 127.0.0.1:${sink.port}\n  smtp.tls: False\n  smtp.sender: prof@x\n`,
    );
  });
  afterAll(async () => {
    await sink.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('sends the message through the profile, or only says so under test=True', async () => {
    const args = ['hello there', 'recipient=a@x', 'subject=Hi', 'profile=mysmtp'];
    expect(await state(...args, 'test=True')).toEqual({
      name: 'hello there',
      result: null,
      changes: {},
      comment: 'Need to send message to a@x: hello there',
    });
    expect(sink.messages).toHaveLength(0);
    expect(await state(...args, 'use_ssl=False')).toEqual({
      name: 'hello there',
      result: true,
      changes: {},
      comment: 'Sent message to a@x: hello there',
    });
    expect(sink.messages.at(-1)).toMatchObject({ from: 'prof@x', to: ['a@x'] });
    expect(sink.messages.at(-1)?.data).toContain('Subject: Hi\nFrom: prof@x\nTo: a@x\n\nhello there\n');
  }, 180_000);

  it('names the attachments it sent', async () => {
    const file = join(root, 'att.txt');
    writeFileSync(file, 'attached\n');
    const r = await state(
      'with file',
      'recipient=a@x, b@y',
      'subject=Att',
      'profile=mysmtp',
      'use_ssl=False',
      `attachments=["${file}"]`,
    );
    expect(r).toMatchObject({
      result: true,
      comment: `Sent message to a@x, b@y with attachments (${file}): with file`,
    });
    expect(sink.messages.at(-1)?.to).toEqual(['a@x', 'b@y']);
  }, 120_000);

  it('fails without sender or profile, and when the server refuses', async () => {
    expect(await state('hello', 'recipient=a@x', 'subject=Hi', 'test=True')).toEqual({
      name: 'hello',
      result: false,
      changes: {},
      comment: 'Missing parameter sender or profile for state smtp.send_msg',
    });
    const n = sink.messages.length;
    expect(await state('nope', 'recipient=no@x', 'subject=Hi', 'profile=mysmtp', 'use_ssl=False')).toEqual({
      name: 'nope',
      result: false,
      changes: {},
      comment: 'Unable to send message to no@x: nope',
    });
    expect(sink.messages).toHaveLength(n);
  }, 120_000);
});
