import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Dealer, Request } from 'zeromq';
import { closeAfterEach, rawPeer, until } from '../../../test/support/zmtp-kit.js';
import { encodeMessage } from './frame.js';
import { greeting, readyCommand } from './handshake.js';
import { ZmtpRouter } from './router-server.js';

const opened = closeAfterEach();

/** A router that answers every request with `echo:` + its last part, after `delayMs`. */
async function echoRouter(extra: { maxFrameBytes?: number; delayMs?: number } = {}) {
  const errors: Error[] = [];
  const seen: Buffer[][] = [];
  const router: ZmtpRouter = new ZmtpRouter({
    maxFrameBytes: extra.maxFrameBytes ?? 1 << 20,
    onPeerError: (e) => errors.push(e),
    onMessage: (frames) => {
      seen.push(frames);
      const reply = () =>
        router.send([...frames.slice(0, -1), Buffer.concat([Buffer.from('echo:'), frames.at(-1) as Buffer])]);
      if (extra.delayMs) setTimeout(reply, extra.delayMs);
      else reply();
    },
  });
  await router.bind('127.0.0.1', 0);
  opened.push(router);
  return { router, errors, seen, address: `tcp://127.0.0.1:${router.port}` };
}

describe('ZmtpRouter with libzmq REQ and DEALER peers', () => {
  it('routes each REQ reply back to its sender, envelope and all', async () => {
    const { router, seen, address } = await echoRouter({ delayMs: 5 });
    const reqs = Array.from({ length: 5 }, () => {
      const r = new Request({ linger: 0 });
      r.connect(address);
      opened.push(r);
      return r;
    });
    const replies = await Promise.all(
      reqs.map(async (r, i) => {
        await r.send(`hello ${i}`);
        const [reply] = await r.receive();
        return reply?.toString();
      }),
    );
    expect(replies).toEqual(reqs.map((_, i) => `echo:hello ${i}`));
    // REQ puts an empty delimiter between the routing id and the body
    expect(seen[0]?.map((f) => f.length).slice(0, 2)).toEqual([5, 0]);
    expect(new Set(seen.map((f) => f[0]?.toString('hex'))).size).toBe(5);
    expect(router.connected).toBe(5);
  });

  it('carries multi-part and large messages both ways', async () => {
    const { address } = await echoRouter({ maxFrameBytes: 4 << 20 });
    const dealer = new Dealer({ linger: 0 });
    opened.push(dealer);
    dealer.connect(address);
    const big = Buffer.alloc(3 << 20, 7);
    await dealer.send([Buffer.from('a'), big]);
    const parts = await dealer.receive();
    expect(parts.map((p) => p.length)).toEqual([1, 5 + big.length]);
    expect(parts[1]?.subarray(5).equals(big)).toBe(true);
  });

  it('drops a reply for a peer that is gone, and refuses a malformed routing id', async () => {
    const { router, seen, address } = await echoRouter({ delayMs: 1_000_000 });
    const req = new Request({ linger: 0 });
    req.connect(address);
    await req.send('x');
    await until(() => seen.length === 1);
    const frames = seen[0] as Buffer[];
    req.close();
    await until(() => router.connected === 0);
    expect(router.send([frames[0] as Buffer, Buffer.alloc(0), Buffer.from('late')])).toBe(false);
    expect(router.send([Buffer.from('nope'), Buffer.from('x')])).toBe(false);
    expect(router.send([frames[0] as Buffer])).toBe(false);
  });

  it('disconnects peers that break the protocol or send too much, and keeps serving', async () => {
    const { errors, address, router } = await echoRouter({ maxFrameBytes: 1000 });
    const sub = await rawPeer(router.port, opened);
    sub.write(Buffer.concat([greeting(), readyCommand({ 'Socket-Type': 'SUB' })]));
    await until(() => errors.length === 1);
    expect(errors[0]?.message).toMatch(/SUB socket cannot talk/);

    const flood = await rawPeer(router.port, opened);
    const part = encodeMessage([Buffer.alloc(600), Buffer.alloc(600)]);
    flood.write(Buffer.concat([greeting(), readyCommand({ 'Socket-Type': 'DEALER' }), part]));
    await until(() => errors.length === 2);
    expect(errors[1]).toMatchObject({
      code: 'SALT_ERR_BUS_ZMTP',
      message: expect.stringMatching(/message larger/),
    });

    const early = await rawPeer(router.port, opened);
    early.write(Buffer.concat([greeting(), encodeMessage([Buffer.from('x')])]));
    await until(() => errors.length === 3);
    expect(errors[2]?.message).toMatch(/before READY/);

    const req = new Request({ linger: 0 });
    opened.push(req);
    req.connect(address);
    await req.send('ok');
    expect((await req.receive())[0]?.toString()).toBe('echo:ok');
  });

  it('with onOversized, answers a libzmq REQ whose request is over the limit and keeps its connection', async () => {
    const errors: Error[] = [];
    const refused: number[] = [];
    const router: ZmtpRouter = new ZmtpRouter({
      maxFrameBytes: 64 * 1024,
      onPeerError: (e) => errors.push(e),
      onMessage: (frames) => router.send([...frames.slice(0, -1), Buffer.from(`echo:${frames.at(-1)}`)]),
      onOversized: (envelope, bytes) => {
        refused.push(bytes);
        router.send([...envelope, Buffer.from('too large')]);
      },
    });
    await router.bind('127.0.0.1', 0);
    opened.push(router);
    const req = new Request({ linger: 0 });
    opened.push(req);
    req.connect(`tcp://127.0.0.1:${router.port}`);
    for (const size of [3 << 20, 64 * 1024 + 1]) {
      await req.send(Buffer.alloc(size, 1));
      expect((await req.receive())[0]?.toString()).toBe('too large');
      await req.send('hello');
      expect((await req.receive())[0]?.toString()).toBe('echo:hello');
    }
    expect(refused).toEqual([3 << 20, 64 * 1024 + 1]);
    expect(errors).toEqual([]);
    expect(router.connected).toBe(1);
  });

  it('survives peers sending random bytes, before and after the handshake', async () => {
    const { errors, address, router } = await echoRouter({ maxFrameBytes: 4096 });
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const noise = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rand() * 256)));
    const peers = await Promise.all(Array.from({ length: 20 }, () => rawPeer(router.port, opened)));
    peers.forEach((p, i) => {
      const hello =
        i % 2 === 0
          ? Buffer.concat([greeting(), readyCommand({ 'Socket-Type': 'DEALER' })])
          : Buffer.alloc(0);
      p.on('error', () => undefined);
      p.write(Buffer.concat([hello, noise(50 + i * 37)]));
    });
    await sleep(200);
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors)
      expect(['SALT_ERR_BUS_ZMTP', 'ECONNRESET', 'EPIPE']).toContain((e as { code?: string }).code);
    const req = new Request({ linger: 0 });
    opened.push(req);
    req.connect(address);
    await req.send('after the noise');
    expect((await req.receive())[0]?.toString()).toBe('echo:after the noise');
  });

  it('disconnects a peer flooding empty parts, or a big frame before its READY', async () => {
    const { errors, router } = await echoRouter({ maxFrameBytes: 1 << 20 });
    const flood = await rawPeer(router.port, opened);
    const empties = Buffer.alloc(2 * 100, 0);
    for (let i = 0; i < empties.length; i += 2) empties[i] = 1; // MORE, size 0
    flood.write(Buffer.concat([greeting(), readyCommand({ 'Socket-Type': 'DEALER' }), empties]));
    await until(() => errors.length === 1);
    expect(errors[0]?.message).toMatch(/more than 64 parts/);
    const early = await rawPeer(router.port, opened);
    early.write(Buffer.concat([greeting(), encodeMessage([Buffer.alloc(10_000)])]));
    await until(() => errors.length === 2);
    expect(errors[1]?.message).toMatch(/limit of 8192/);
  });

  it('a peer connecting while paused finishes its handshake, and its request is not lost', async () => {
    // (a request read together with the peer's READY is taken at once: pausing is backpressure)
    const { router, address, errors } = await echoRouter();
    router.pause();
    const req = new Request({ linger: 0 });
    opened.push(req);
    req.connect(address);
    await req.send('while paused');
    await until(() => router.connected === 1);
    await sleep(100);
    expect(errors).toEqual([]);
    router.resume();
    expect((await req.receive())[0]?.toString()).toBe('echo:while paused');
  });

  it('pause() holds messages back until resume()', async () => {
    const { router, seen, address } = await echoRouter();
    const req = new Request({ linger: 0 });
    opened.push(req);
    req.connect(address);
    await req.send('first');
    await req.receive();
    router.pause();
    await req.send('second');
    await sleep(100);
    expect(seen).toHaveLength(1);
    router.resume();
    expect((await req.receive())[0]?.toString()).toBe('echo:second');
  });

  it('keeps no READY metadata per connected peer once the handshake is over', async () => {
    // a master holds one peer per minion: ~250 bytes of Map each at 10,000 minions add up
    class Inspected extends ZmtpRouter {
      kept(): unknown[] {
        return [...this.peers].map((p) => p.stream.metadata);
      }
    }
    const router = new Inspected({
      onMessage: (frames) => router.send([...frames.slice(0, -1), Buffer.from('ok')]),
    });
    await router.bind('127.0.0.1', 0);
    opened.push(router);
    const req = new Request({ linger: 0 });
    opened.push(req);
    req.connect(`tcp://127.0.0.1:${router.port}`);
    await req.send('hi');
    expect((await req.receive())[0]?.toString()).toBe('ok');
    expect(router.kept()).toEqual([undefined]);
  });
});
