/**
 * A third-party package's kernel plugin (test/fixtures/tsalt-ext-acme/plugin.mjs), written
 * against the plugin API alone, in a real master: its request commands (an aes command on the
 * request server's router thread, one answered privately on a worker thread, and a clear command
 * that checks the caller's user key), sent by a signed-in minion and a user over real sockets,
 * its master process, which answers events on the master bus from a child of its own, its task,
 * a one-shot process its command starts, and its
 * REST route, served by the master's netapi to callers with a salt-api token.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventFirer, EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import { ReqClient } from '../../kernel/bus/req-client.js';
import { generateRsaKeyPair } from '../../kernel/crypt/rsa.js';
import { freePort } from '../../kernel/process/ports.js';
import { packNetwork, unpackNetwork } from '../../kernel/serial/index.js';
import { AesChannel } from '../../minion/aes-channel.js';
import { newAuthToken, signIn } from '../../minion/auth.js';
import { openPrivateReply } from '../../minion/private-reply.js';
import { Cluster, REPO } from '../../tools/local-cluster.js';
import { loginToken, waitForApi } from '../../tools/netapi-http.js';

describe('request commands, a master process and a REST route from a plugin package', () => {
  const c = new Cluster();
  let api = '';
  let client: ReqClient;
  let channel: AesChannel;
  let open: (reply: unknown, nonce: string) => unknown;

  beforeAll(async () => {
    const plugin = JSON.stringify(join(REPO, 'test/fixtures/tsalt-ext-acme/plugin.mjs'));
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    const netapi = {
      rest_cherrypy: { port, host: '127.0.0.1', disable_ssl: true },
      sharedsecret: 'acme-secret',
      external_auth: { sharedsecret: { acmeuser: ['.*'] }, acme: { carol: ['test.*'] } },
    };
    await c.writeMasterCodeConfig(
      `import { acmePlugin } from ${plugin};`,
      `...${JSON.stringify(netapi)}, plugins: [acmePlugin({ greeting: 'howdy' })]`,
    );
    await c.startMaster();
    const pkiDir = join(c.root, 'minion-acme1');
    mkdirSync(pkiDir, { recursive: true });
    const keys = generateRsaKeyPair();
    const masterUri = `tcp://127.0.0.1:${c.retPort}`;
    client = new ReqClient(masterUri, { timeoutMs: 10_000, tries: 1 });
    const crypto = { encAlgo: 'OAEP-SHA1', sigAlgo: 'PKCS1v15-SHA1' } as const;
    const params = {
      id: 'acme1',
      pkiDir,
      keys,
      masterUri,
      timeoutMs: 10_000,
      token: newAuthToken(),
      client,
      ...crypto,
    };
    const first = await signIn(params);
    if (first.status !== 'accepted') throw new Error(`sign-in: ${first.status}`);
    const { masterPub } = first.creds;
    open = (reply, nonce) =>
      openPrivateReply(reply, 'pillar', { minionPem: keys.privatePem, masterPub, nonce });
    channel = new AesChannel({
      client,
      id: 'acme1',
      privatePem: keys.privatePem,
      session: first.creds.session,
      ...crypto,
    });
  }, 180_000);
  afterAll(async () => {
    channel?.close();
    await c.stop();
  });

  it("answers the plugin's aes command on the router thread, with the sender's id, and fires its event", async () => {
    const events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), ['acme/']);
    await events.ready();
    try {
      const answer = await channel.send({ cmd: '_acme_inventory', id: 'acme1', items: ['a', 'b'] });
      expect(answer).toEqual({ greeting: 'howdy', minion: 'acme1', items: ['a', 'b'] });
      for await (const ev of events) {
        expect(ev.tag).toBe('acme/inventory/acme1');
        expect(ev.data.items).toEqual(['a', 'b']);
        break;
      }
    } finally {
      events.close();
    }
  });

  it('answers a private command with Salt send_private, readable by that minion only', async () => {
    const { reply, nonce } = await channel.sendPrivate({ cmd: '_acme_secret', id: 'acme1' });
    expect(open(reply, nonce)).toEqual({ secret: 'for acme1 only' });
    // the answer is under the one-time key sent encrypted to this minion, not under its session
    expect(JSON.stringify(reply)).not.toContain('for acme1 only');
  });

  it("answers the plugin's clear command for a holder of a user key, and refuses a wrong key", async () => {
    const key = readFileSync(join(c.root, 'var/cache/salt/master/.root_key'), 'utf8').trim();
    const ask = async (k: string): Promise<unknown> =>
      unpackNetwork(
        await client.request(
          packNetwork({ enc: 'clear', load: { cmd: 'acme_status', user: 'root', key: k }, version: 3 }),
        ),
      );
    expect(await ask(key)).toEqual({
      user: 'root',
      commands: ['_acme_inventory', '_acme_secret', 'acme_export', 'acme_status'],
    });
    expect(await ask('wrong')).toEqual({
      error: { name: 'AuthenticationError', message: 'Authentication error occurred.' },
    });
  });

  it('still answers a command nobody registered with an empty map, and the built-in fallbacks as Salt does', async () => {
    expect(await channel.send({ cmd: '_acme_nosuch', id: 'acme1' })).toEqual({});
    expect(await channel.send({ cmd: '_mine_get', id: 'acme1', tgt: '*', fun: 'x' })).toEqual({});
    expect(await channel.send({ cmd: '_mine', id: 'acme1', data: {} })).toBe(true);
  });

  it("runs the plugin's process in a child of the master, which answers on the bus", async () => {
    const events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), [
      'acme/pong',
    ]);
    await events.ready();
    const firer = new EventFirer(masterEventAddresses(join(c.root, 'var/run/salt/master')));
    // the child's subscription may still be on its way when it is ready: ping until it answers
    const pinger = setInterval(() => firer.fire('acme/ping', { n: 7 }), 200);
    try {
      for await (const ev of events) {
        expect(ev.data).toMatchObject({ n: 7, greeting: 'howdy', from: 'acme-pong' });
        break;
      }
    } finally {
      clearInterval(pinger);
      events.close();
      await firer.close();
    }
  });

  it("runs the plugin's task in a process of its own when its command starts it, with the job cache", async () => {
    const key = readFileSync(join(c.root, 'var/cache/salt/master/.root_key'), 'utf8').trim();
    const events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), [
      'acme/exported',
    ]);
    await events.ready();
    try {
      const answer = unpackNetwork(
        await client.request(
          packNetwork({
            enc: 'clear',
            load: { cmd: 'acme_export', user: 'root', key, n: 42 },
            version: 3,
          }),
        ),
      );
      expect(answer).toEqual({ started: true });
      for await (const ev of events) {
        expect(ev.data).toMatchObject({ n: 42, greeting: 'howdy', from: 'acme-export', job_cache: true });
        expect(ev.data.pid).not.toBe(process.pid);
        break;
      }
    } finally {
      events.close();
    }
  });

  it("serves the plugin's REST route on the master's netapi, to a caller with a token only", async () => {
    await waitForApi(api);
    expect((await fetch(`${api}/acme/status`)).status).toBe(401);
    const token = await loginToken(api, 'acmeuser', 'acme-secret', 'sharedsecret');
    const r = await fetch(`${api}/acme/status`, {
      headers: { 'X-Auth-Token': token, Accept: 'application/json' },
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ greeting: 'howdy', user: 'acmeuser', eauth: 'sharedsecret' });
  });

  it("logs in through the plugin's eauth back end, with its external_auth block's permissions", async () => {
    await waitForApi(api);
    const login = (password: string) =>
      fetch(`${api}/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ username: 'carol', password, eauth: 'acme' }),
      });
    expect((await login('carol')).status).toBe(401);
    const ok = await login('lorac');
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { return: [{ token: string; eauth: string; perms: unknown }] };
    expect(body.return[0]).toMatchObject({ eauth: 'acme', perms: ['test.*'] });
    const r = await fetch(`${api}/acme/status`, {
      headers: { 'X-Auth-Token': body.return[0].token, Accept: 'application/json' },
    });
    expect(await r.json()).toEqual({ greeting: 'howdy', user: 'carol', eauth: 'acme' });
  });
});
