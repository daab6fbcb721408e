import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunnerClient } from '../../client/runner-client.js';
import { connectHost, tcpAddress } from '../../kernel/bus/address.js';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import { ReqClient } from '../../kernel/bus/req-client.js';
import { loadConfig, type ResolvedMasterConfig } from '../../kernel/config/index.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { packNetwork, unpackNetwork } from '../../kernel/serial/index.js';
import { Cluster } from '../../tools/local-cluster.js';

describe('wheel: key and config functions through the wheel clear command', () => {
  const c = new Cluster({
    master: {
      auto_accept: false,
      // an option tsalt does not use (SaltGUI's) and a secret, for config.values
      saltgui_templates: { t1: { command: 'test.ping' } },
      sharedsecret: 'hunter2',
    },
  });
  let client: RunnerClient;
  let config: ResolvedMasterConfig;
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('w1', {}, false);
    await c.startMinion('w2', {}, false);
    config = (await loadConfig('master', c.confDir)).config;
    client = new RunnerClient(config);
    await client.listen();
    // wait until both minions have sent their keys
    for (let i = 0; i < 100; i++) {
      const data = await client.wheel('key.list_all');
      const pre = (data.return as { minions_pre: string[] }).minions_pre;
      if (pre.length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await c.stop();
  });

  it('key.list_all lists pending keys and the master keys', async () => {
    const data = await client.wheel('key.list_all');
    expect(data).toMatchObject({ fun: 'wheel.key.list_all', success: true, user: expect.any(String) });
    expect(data.tag).toBe(`salt/wheel/${String(data.jid)}`);
    expect(data.return).toEqual({
      minions: [],
      minions_pre: ['w1', 'w2'],
      minions_rejected: [],
      minions_denied: [],
      local: ['master.pem', 'master.pub'],
    });
  });

  it('key.accept fires salt/wheel/<jid>/new, /ret and salt/key; the minion then answers', async () => {
    const listener = new EventListener(masterEventAddresses(config.sock_dir), ['salt/wheel/', 'salt/key']);
    await listener.ready(5000);
    const seen: SaltEvent[] = [];
    let retTag = '';
    // the previous test's wheel events may still be on their way (a reply goes out before its
    // events): keep this call's own, known by its jid once the reply names it
    const collecting = (async () => {
      for await (const ev of listener) {
        seen.push(ev);
        if (retTag && seen.some((e) => e.tag === retTag)) break;
      }
    })();
    const data = await client.wheel('key.accept', [], { match: 'w1' });
    retTag = `salt/wheel/${String(data.jid)}/ret`;
    if (!seen.some((e) => e.tag === retTag)) await collecting;
    listener.close();
    const own = seen.filter(
      (e) => e.tag === 'salt/key' || e.tag.startsWith(`salt/wheel/${String(data.jid)}/`),
    );
    expect(data.return).toEqual({ minions: ['w1'] });
    expect(data.success).toBe(true);
    expect(own.map((e) => e.tag.replace(/\d{20}/, 'JID'))).toEqual([
      'salt/wheel/JID/new',
      'salt/key',
      'salt/wheel/JID/ret',
    ]);
    await c.minions.get('w1')!.waitFor('salt-minion started', 30_000);
    const r = await c.saltJson(['w1', 'test.ping']);
    expect(r.data).toEqual({ w1: true });
  });

  it('key.list, key.finger, key.reject and key.delete', async () => {
    expect((await client.wheel('key.list', ['acc'])).return).toEqual({ minions: ['w1'] });
    const finger = (await client.wheel('key.finger', [], { match: 'w1' })).return as Record<
      string,
      Record<string, string>
    >;
    expect(finger.minions?.w1).toMatch(/^([0-9a-f]{2}:)+[0-9a-f]{2}$/);
    expect((await client.wheel('key.reject', [], { match: 'w2' })).return).toEqual({
      minions_rejected: ['w2'],
    });
    // w2 still signs in every second: once its key is deleted, its next try would put a new key
    // in pending, between key.delete and the listing it returns (as with Salt)
    await c.minions.get('w2')!.stop();
    expect((await client.wheel('key.delete', [], { match: 'w2' })).return).toEqual({});
    const all = (await client.wheel('key.list_all')).return as Record<string, string[]>;
    expect(all.minions_rejected).toEqual([]);
    expect(all.minions).toEqual(['w1']);
  });

  it('key.gen_accept accepts a generated key; config.values and minions.connected answer', async () => {
    const gen = (await client.wheel('key.gen_accept', ['made'])).return as { pub: string; priv: string };
    expect(gen.pub).toContain('BEGIN PUBLIC KEY');
    expect(gen.priv).toContain('PRIVATE KEY');
    expect((await client.wheel('key.gen_accept', ['made'])).return).toEqual({});
    const values = (await client.wheel('config.values')).return as Record<string, unknown>;
    expect(values.ret_port).toBe(c.retPort);
    // as Salt's: unknown options at the top level (SaltGUI reads its own there); secrets masked
    expect(values.saltgui_templates).toEqual({ t1: { command: 'test.ping' } });
    expect(values).not.toHaveProperty('extra');
    expect(values.sharedsecret).toBe('********');
    const connected = (await client.wheel('minions.connected')).return;
    expect(connected).toEqual(['w1']);
  });

  it('a wheel function that fails, and an unknown one, answer success: false', async () => {
    const bad = await client.wheel('key.list', ['nonsense']);
    expect(bad.success).toBe(false);
    expect(String(bad.return)).toContain('unknown key status "nonsense"');
    const unknown = await client.wheel('nosuch.fun');
    expect(unknown.success).toBe(false);
    expect(String(unknown.return)).toContain("'nosuch.fun' is not available");
  });

  it('a wrong user key is refused, and the master keeps serving', async () => {
    const req = new ReqClient(tcpAddress(connectHost(config.interface), config.ret_port), {
      timeoutMs: 5000,
      tries: 1,
    });
    const reply = unpackNetwork(
      await req.request(
        packNetwork({ enc: 'clear', load: { cmd: 'wheel', fun: 'key.list_all', key: 'wrong' }, version: 3 }),
      ),
    );
    expect(reply).toEqual({
      error: { name: 'AuthenticationError', message: 'Authentication error occurred.' },
    });
    const runner = unpackNetwork(
      await req.request(
        packNetwork({ enc: 'clear', load: { cmd: 'runner', fun: 'test.arg', key: 'x' }, version: 3 }),
      ),
    );
    expect(runner).toEqual({
      error: { name: 'AuthenticationError', message: 'Authentication error occurred.' },
    });
    const eauth = unpackNetwork(
      await req.request(
        packNetwork({
          enc: 'clear',
          load: { cmd: 'runner', fun: 'test.arg', eauth: 'pam', username: 'u' },
          version: 3,
        }),
      ),
    ) as { error: { name: string } };
    expect(eauth.error.name).toBe('EauthAuthenticationError');
    req.close();
    expect((await client.wheel('key.list', ['acc'])).success).toBe(true);
  });
});
