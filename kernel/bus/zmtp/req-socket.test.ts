import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Router } from 'zeromq';
import { closeAfterEach } from '../../../test/support/zmtp-kit.js';
import { freePort } from '../../process/ports.js';
import { parseTcpAddress } from '../address.js';
import { ReqClient } from '../req-client.js';
import { isRetryable, ZmtpRequester } from './req-socket.js';
import { ZmtpRouter } from './router-server.js';

const opened = closeAfterEach();

/** A libzmq ROUTER (what a Salt master binds) answering `re:` + the body. */
async function libzmqRouter(port: number): Promise<Router> {
  const router = new Router({ linger: 0 });
  await router.bind(`tcp://127.0.0.1:${port}`);
  opened.push(router);
  void (async () => {
    try {
      for await (const [id, delim, body] of router)
        await router.send([
          id as Buffer,
          delim as Buffer,
          Buffer.concat([Buffer.from('re:'), body as Buffer]),
        ]);
    } catch {
      // closed
    }
  })();
  return router;
}

function requester(port: number): ZmtpRequester {
  const r = new ZmtpRequester({ host: '127.0.0.1', port });
  opened.push(r);
  return r;
}

describe('ZmtpRequester', () => {
  it('talks to a libzmq ROUTER, request after request on one connection', async () => {
    const port = await freePort();
    await libzmqRouter(port);
    const req = requester(port);
    for (let i = 0; i < 3; i++)
      expect((await req.request(Buffer.from(`q${i}`), 2000)).toString()).toBe(`re:q${i}`);
    const big = Buffer.alloc(2 << 20, 3);
    const reply = await req.request(big, 5000);
    expect(reply.length).toBe(big.length + 3);
  });

  it("talks to tsalt's ROUTER", async () => {
    const router: ZmtpRouter = new ZmtpRouter({
      onMessage: (f) => router.send([...f.slice(0, -1), Buffer.from('ok')]),
    });
    await router.bind('127.0.0.1', 0);
    opened.push(router);
    expect((await requester(router.port).request(Buffer.from('x'), 2000)).toString()).toBe('ok');
  });

  it('waits for a master that is not up yet, reconnecting until the deadline', async () => {
    const port = await freePort();
    const req = requester(port);
    const answer = req.request(Buffer.from('early'), 5000);
    await sleep(300);
    await libzmqRouter(port);
    expect((await answer).toString()).toBe('re:early');
  });

  it('times out with a retryable error when nothing answers, and refuses a second outstanding request', async () => {
    const router = new ZmtpRouter({ onMessage: () => undefined });
    await router.bind('127.0.0.1', 0);
    opened.push(router);
    const req = requester(router.port);
    const first = req.request(Buffer.from('x'), 300);
    await expect(req.request(Buffer.from('y'), 300)).rejects.toThrow(/already outstanding/);
    const err = await first.catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SALT_ERR_BUS_TIMEOUT' });
    expect(isRetryable(err)).toBe(true);
    const none = requester(await freePort());
    const refused = await none.request(Buffer.from('x'), 250).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'SALT_ERR_BUS_TIMEOUT' });
  });

  it('fails a request at once, retryably, when the master drops the connection', async () => {
    let router: ZmtpRouter | undefined;
    router = new ZmtpRouter({ onMessage: () => void router?.close() });
    await router.bind('127.0.0.1', 0);
    const started = Date.now();
    const err = await requester(router.port)
      .request(Buffer.from('x'), 10_000)
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(isRetryable(err)).toBe(true);
  });

  it('refuses a peer that is not a ROUTER or REP', async () => {
    const pub = new (await import('./pub-server.js')).ZmtpPublisher({ sendHighWaterMark: 1 });
    await pub.bind('127.0.0.1', 0);
    opened.push(pub);
    const err = await requester(pub.port)
      .request(Buffer.from('x'), 500)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SALT_ERR_BUS_TIMEOUT' });
  });
});

describe('ReqClient', () => {
  it('retries a timed-out try on a new connection', async () => {
    let seen = 0;
    const router: ZmtpRouter = new ZmtpRouter({
      onMessage: (f) => {
        // the first try goes unanswered
        if (++seen > 1) router.send([...f.slice(0, -1), Buffer.from(`try ${seen}`)]);
      },
    });
    await router.bind('127.0.0.1', 0);
    opened.push(router);
    const client = new ReqClient(`tcp://127.0.0.1:${router.port}`, { timeoutMs: 300, tries: 3 });
    opened.push(client);
    expect((await client.request(Buffer.from('x'))).toString()).toBe('try 2');
  });

  it('parses tcp addresses and names a bad one', () => {
    expect(parseTcpAddress('tcp://[::1]:4506')).toEqual({ host: '::1', port: 4506 });
    expect(parseTcpAddress('tcp://salt.example:4506')).toEqual({ host: 'salt.example', port: 4506 });
    expect(() => parseTcpAddress('ipc:///tmp/x')).toThrow(
      expect.objectContaining({ code: 'SALT_ERR_BUS_ADDRESS' }),
    );
    expect(() => parseTcpAddress('tcp://host:99999')).toThrow(/not a tcp/);
  });
});
