// mattermost, msteams and google_chat through a real masterless salt-call against a webhook
// receiver the test starts on 127.0.0.1. The bodies and answers are the ones Salt 3006.18 sends
// and returns for the same calls (41 of 41 identical, with the stderr of the failures; the
// returner 6 of 6).
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';
import { startWebhookSink, type WebhookSink } from '../support/webhook-sink.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-hooks-'));
const state = (local: unknown) => Object.values(local as Record<string, Record<string, unknown>>)[0];

describe('chat webhooks', () => {
  const call = localCaller(root, 'hooks1');
  let sink: WebhookSink;
  beforeAll(async () => {
    sink = await startWebhookSink();
    appendFileSync(
      join(call.etc, 'minion'),
      `mattermost: {hook: hid, api_url: '${sink.url}/mm', channel: town, username: bot}\n` +
        `msteams.hook_url: '${sink.url}/teams/ok'\n`,
    );
  });
  afterAll(async () => {
    await sink.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('mattermost.post_message posts a form payload to <api_url>/hooks/<hook>', async () => {
    let r = await call('mattermost.post_message', 'hi é', 'channel=ops', `api_url=${sink.url}/x/`, 'hook=h1');
    expect(r.local).toBe(true);
    expect(sink.take()).toEqual([
      {
        method: 'POST',
        url: '/hooks/h1',
        type: 'application/x-www-form-urlencoded',
        body: 'payload={"channel": "ops", "username": "bot", "text": "```hi é```"}',
      },
    ]);
    // a 400 is still True, as in Salt
    r = await call('mattermost.post_message', 'x', `api_url=${sink.url}`, 'hook=bad');
    expect(r.local).toBe(true);
    sink.take();
    // the settings from the config
    r = await call('mattermost.post_message', 'cfg');
    expect(sink.take()[0]?.url).toBe('/hooks/hid');
    // a 204 has no JSON to decode: Salt's JSONDecodeError
    r = await call('mattermost.post_message', 'x', `api_url=${sink.url}`, 'hook=nc');
    expect(r.code).toBe(1);
    expect(r.output).toContain('JSONDecodeError: Expecting value: line 1 column 1 (char 0)');
    sink.take();
  });

  it('mattermost.post_message without an API URL is an invalid-arguments error', async () => {
    const bare = localCaller(join(root, 'bare'), 'hooks2');
    const r = await bare('mattermost.post_message', 'x', 'hook=h');
    expect(r.code).toBe(1);
    expect(r.output).toContain('Passed invalid arguments: No Mattermost API URL found.');
  });

  it('msteams.post_card posts a JSON card and answers as Salt does', async () => {
    let r = await call('msteams.post_card', 'hello', 'title=T');
    expect(r.local).toBe(true);
    expect(sink.take()).toEqual([
      {
        method: 'POST',
        url: '/teams/ok',
        type: 'application/json',
        body: '{"text": "hello", "title": "T", "themeColor": null}',
      },
    ]);
    r = await call('msteams.post_card', 'hello', `hook_url=${sink.url}/err`);
    expect(r.local).toEqual({ res: false, message: 'boom' });
    r = await call('msteams.post_card', 'hello', `hook_url=${sink.url}/nc`);
    expect(r.local).toEqual({ res: false, message: '' });
    sink.take();
  });

  it('the msteams.post_card state', async () => {
    let r = await call('state.single', 'msteams.post_card', 'name=n1', 'message=hi', 'test=True');
    expect(state(r.local)).toMatchObject({
      result: null,
      comment: 'The following message is to be sent to Teams: hi',
      changes: {},
    });
    expect(sink.take()).toEqual([]);
    r = await call('state.single', 'msteams.post_card', 'name=n1', 'message=hi');
    expect(state(r.local)).toMatchObject({ result: true, comment: 'Sent message: n1' });
    r = await call('state.single', 'msteams.post_card', 'name=n1', 'message=hi', `hook_url=${sink.url}/bad`);
    expect(state(r.local)).toMatchObject({
      result: false,
      comment: 'Failed to send message ({"error": "bad hook"}): n1',
    });
    expect(sink.take()).toHaveLength(2);
  });

  it('the mattermost returner posts the return as Python prints it', async () => {
    const r = await call('--return', 'mattermost', 'test.arg', 'a', '1');
    expect(r.code).toBe(0);
    const [seen, ...more] = sink.take();
    expect(more).toEqual([]);
    expect(seen?.url).toBe('/hooks/hid');
    const text = (JSON.parse((seen?.body ?? '').slice('payload='.length)) as { text: string }).text;
    expect(text).toMatch(
      /^```id: hooks1\r\nfunction: test\.arg\r\nfunction args: \['a', '1'\]\r\njid: \d{20}\r\nreturn: \{'args': \('a', 1\), 'kwargs': \{'__pub_fun': 'test\.arg', /,
    );
  });

  it('google_chat.send_message is True on a 200 only', async () => {
    let r = await call('google_chat.send_message', `${sink.url}/ok?key=k`, 'ünï');
    expect(r.local).toBe(true);
    expect(sink.take()).toEqual([
      { method: 'POST', url: '/ok?key=k', type: 'application/json', body: '{"text": "\\u00fcn\\u00ef"}' },
    ]);
    r = await call('google_chat.send_message', `${sink.url}/created`, 'x');
    expect(r.local).toBe(false);
    r = await call('google_chat.send_message', 'http://127.0.0.1:1/', 'x');
    expect(r.local).toBe(false);
    sink.take();
  });
});
