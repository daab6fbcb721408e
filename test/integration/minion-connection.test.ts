import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Socket, connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReqClient } from '../../kernel/bus/req-client.js';
import { generateRsaKeyPair } from '../../kernel/crypt/rsa.js';
import { AesChannel } from '../../minion/aes-channel.js';
import { newAuthToken, signIn } from '../../minion/auth.js';
import { Cluster, runCli } from '../../tools/local-cluster.js';

/**
 * A TCP relay to the master's request port that counts the connections made through it, and can
 * hold back what the master sends until released.
 */
async function countingRelay(port: number) {
  let connections = 0;
  let holding = false;
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const server = createServer((inbound) => {
    connections++;
    const outbound = tcpConnect({ host: '127.0.0.1', port });
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound);
    outbound.on('data', (chunk: Buffer) => {
      if (holding) held.push(() => inbound.write(chunk));
      else inbound.write(chunk);
    });
  });
  server.on('close', () => {
    for (const s of sockets) s.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('relay has no port');
  return {
    server,
    port: address.port,
    connections: () => connections,
    /** Holds the master's bytes back from now on. */
    hold: () => {
      holding = true;
    },
    /** How many chunks from the master are held. */
    held: () => held.length,
    /** Sends what was held, and lets the rest through. */
    release: () => {
      holding = false;
      for (const send of held.splice(0)) send();
    },
  };
}

describe("a minion's connections to the request port", () => {
  const c = new Cluster();
  let relay: Awaited<ReturnType<typeof countingRelay>>;

  beforeAll(async () => {
    await c.startMaster();
    relay = await countingRelay(c.retPort);
  });
  afterAll(async () => {
    relay?.server.close();
    await c.stop();
  });

  async function minion(id: string, shared: boolean) {
    const pkiDir = join(c.root, `minion-${id}`);
    mkdirSync(pkiDir, { recursive: true });
    const keys = generateRsaKeyPair();
    const masterUri = `tcp://127.0.0.1:${relay.port}`;
    const client = new ReqClient(masterUri, { timeoutMs: 10_000, tries: 1 });
    const params = {
      id,
      pkiDir,
      keys,
      masterUri,
      encAlgo: 'OAEP-SHA1',
      sigAlgo: 'PKCS1v15-SHA1',
      timeoutMs: 10_000,
      token: newAuthToken(),
      client: shared ? client : undefined,
    } as const;
    const first = await signIn(params);
    if (first.status !== 'accepted') throw new Error(`sign-in: ${first.status}`);
    const channel = new AesChannel({
      client,
      id,
      privatePem: keys.privatePem,
      session: first.creds.session,
      encAlgo: 'OAEP-SHA1',
      sigAlgo: 'PKCS1v15-SHA1',
    });
    return { params, channel };
  }

  it('the sign-in, a re-auth and the aes requests share one connection', async () => {
    const before = relay.connections();
    const { params, channel } = await minion('one-link', true);
    try {
      const event = { cmd: '_minion_event', id: 'one-link', tag: 'custom/x', data: { n: 1 }, pretag: null };
      expect(await channel.send(event)).toBeNull();
      const again = await signIn(params);
      expect(again.status).toBe('accepted');
      if (again.status === 'accepted') channel.setSession(again.creds.session);
      expect(await channel.send(event)).toBeNull();
      expect(relay.connections() - before).toBe(1);
    } finally {
      channel.close();
    }
  });

  it('a request queued behind a re-auth that changed the session goes again with the new one', async () => {
    const { params, channel } = await minion('requeued', true);
    try {
      // the master makes a new session key at the next sign-in
      rmSync(join(c.root, 'var/cache/salt/master/sessions/requeued'));
      relay.hold();
      const reauth = signIn(params).then((outcome) => {
        if (outcome.status === 'accepted') channel.setSession(outcome.creds.session);
        return outcome;
      });
      // the master has answered the sign-in, and the answer is held: the sign-in is under way
      while (relay.held() === 0) await new Promise((r) => setTimeout(r, 5));
      // framed now with the old session, it waits behind the sign-in and reaches the master after it
      const event = { cmd: '_minion_event', id: 'requeued', tag: 'custom/y', data: {}, pretag: null };
      const sent = channel.send(event);
      relay.release();
      expect((await reauth).status).toBe('accepted');
      expect(await sent).toBeNull();
    } finally {
      channel.close();
    }
  });

  it('the minion daemon and salt-call keep to one request connection each', async () => {
    const before = relay.connections();
    // signs in, reports its grains and fires its start event, all through the relay
    await c.startMinion('relayed', { master_port: relay.port });
    const { data } = await c.saltJson(['relayed', 'test.ping']);
    expect(data.relayed).toBe(true);
    expect(relay.connections() - before).toBe(1);
    const call = await runCli('salt-call', ['-c', c.minionConfDir('relayed'), 'test.ping'], 30_000);
    expect(call.stdout).toContain('True');
    expect(relay.connections() - before).toBe(2);
  });

  it('without the channel, a sign-in makes and closes a connection of its own, as Salt does', async () => {
    const before = relay.connections();
    const { channel } = await minion('own-link', false);
    try {
      const event = { cmd: '_minion_event', id: 'own-link', tag: 'custom/x', data: {}, pretag: null };
      expect(await channel.send(event)).toBeNull();
      expect(relay.connections() - before).toBe(2);
    } finally {
      channel.close();
    }
  });
});
