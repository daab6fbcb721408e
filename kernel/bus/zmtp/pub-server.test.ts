import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Subscriber, XSubscriber } from 'zeromq';
import { closeAfterEach, rawPeer, until } from '../../../test/support/zmtp-kit.js';
import { encodeCommand, encodeMessage, type Frame, FrameDecoder } from './frame.js';
import { greeting, readyCommand } from './handshake.js';
import { ZmtpPublisher } from './pub-server.js';

const opened = closeAfterEach();

async function publisher(extra: Partial<ConstructorParameters<typeof ZmtpPublisher>[0]> = {}) {
  const subs: string[] = [];
  const errors: Error[] = [];
  const pub = new ZmtpPublisher({
    sendHighWaterMark: 1000,
    onSubscription: (m) => subs.push(`${m[0]}:${m.toString('latin1', 1)}`),
    onPeerError: (e) => errors.push(e),
    ...extra,
  });
  await pub.bind('127.0.0.1', 0);
  opened.push(pub);
  return { pub, subs, errors, address: `tcp://127.0.0.1:${pub.port}` };
}

/** Every frame a raw peer receives after the publisher's 64-byte greeting. */
function framesOf(peer: Socket, onFrame: (f: Frame) => unknown): void {
  const decoder = new FrameDecoder(1 << 20);
  let skip = 64;
  peer.on('data', (d: Buffer) => {
    const rest = d.subarray(Math.min(skip, d.length));
    skip -= d.length - rest.length;
    for (const f of decoder.push(rest)) onFrame(f);
  });
}

/** A raw peer's greeting, READY as a SUB and a subscription to everything. */
function subscribeAll(peer: Socket): void {
  peer.write(
    Buffer.concat([greeting(), readyCommand({ 'Socket-Type': 'SUB' }), encodeMessage([Buffer.from([1])])]),
  );
}

/** Publishes until the subscriber gets a message (a SUB joins a moment after it connects). */
async function firstMessage(pub: ZmtpPublisher, sub: Subscriber, parts: Buffer[]): Promise<Buffer[]> {
  const got = sub.receive();
  const timer = setInterval(() => pub.send(parts), 10);
  try {
    return await got;
  } finally {
    clearInterval(timer);
  }
}

describe('ZmtpPublisher with libzmq subscribers', () => {
  it('delivers single and multi-part messages to a zeromq.js SUB', async () => {
    const { pub, address } = await publisher();
    const sub = new Subscriber({ linger: 0 });
    opened.push(sub);
    sub.connect(address);
    sub.subscribe('');
    const [one] = await firstMessage(pub, sub, [Buffer.from('hello')]);
    expect(one?.toString()).toBe('hello');
    expect(pub.connected).toBe(1);
    const big = Buffer.alloc(70_000, 9);
    pub.send([Buffer.from('topic'), big]);
    let parts = await sub.receive();
    while (parts[0]?.toString() === 'hello') parts = await sub.receive();
    expect(parts.map((p) => p.length)).toEqual([5, 70_000]);
    expect(parts[1]?.equals(big)).toBe(true);
  });

  it('filters by topic prefix and reports subscriptions once per topic, as XPUB does', async () => {
    const { pub, subs, address } = await publisher();
    const a = new Subscriber({ linger: 0 });
    const b = new Subscriber({ linger: 0 });
    opened.push(a, b);
    for (const s of [a, b]) {
      s.connect(address);
      s.subscribe('job/');
    }
    b.subscribe('\u0000presence/b');
    await until(() => subs.length === 2);
    expect(subs).toEqual(['1:job/', '1:\u0000presence/b']);
    expect(pub.send([Buffer.from('other')])).toBe(0);
    expect(pub.send([Buffer.from('job/1')])).toBe(2);
    expect((await a.receive())[0]?.toString()).toBe('job/1');
    expect((await b.receive())[0]?.toString()).toBe('job/1');
    b.close();
    await until(() => subs.length === 3);
    expect(subs[2]).toBe('0:\u0000presence/b');
    a.unsubscribe('job/');
    await until(() => subs.length === 4);
    expect(subs[3]).toBe('0:job/');
  });

  it('takes XSUB peers', async () => {
    const { pub, address } = await publisher();
    const xsub = new XSubscriber({ linger: 0 });
    opened.push(xsub);
    xsub.connect(address);
    await xsub.send(Buffer.from([1]));
    await until(() => pub.send([Buffer.from('x')]) === 1);
    expect((await xsub.receive())[0]?.toString()).toBe('x');
  });

  it('disconnects a socket of the wrong type, garbage and oversized frames, and keeps serving', async () => {
    const { pub, errors, address } = await publisher({ maxFrameBytes: 100 });
    const push = await rawPeer(pub.port, opened);
    push.write(Buffer.concat([greeting(), readyCommand({ 'Socket-Type': 'PUSH' })]));
    await until(() => errors.length === 1);
    expect(errors[0]?.message).toMatch(/PUSH socket cannot talk to this socket/);

    const junk = await rawPeer(pub.port, opened);
    junk.write('GET / HTTP/1.1\r\n\r\n');
    await until(() => errors.length === 2);
    expect(errors[1]).toMatchObject({ code: 'SALT_ERR_BUS_ZMTP' });

    const huge = await rawPeer(pub.port, opened);
    huge.write(
      Buffer.concat([
        greeting(),
        readyCommand({ 'Socket-Type': 'SUB' }),
        encodeMessage([Buffer.alloc(101, 1)]),
      ]),
    );
    await until(() => errors.length === 3);
    expect(errors[2]?.message).toMatch(/limit of 100/);

    const sub = new Subscriber({ linger: 0 });
    opened.push(sub);
    sub.connect(address);
    sub.subscribe('');
    expect((await firstMessage(pub, sub, [Buffer.from('still here')]))[0]?.toString()).toBe('still here');
  });

  it('drops messages for a peer that stopped reading, past the high-water mark', async () => {
    const { pub } = await publisher({ sendHighWaterMark: 2 });
    const slow = await rawPeer(pub.port, opened);
    const decoder = new FrameDecoder(1 << 20);
    let seen = 0;
    slow.on('data', (d: Buffer) => {
      seen += decoder.push(d.subarray(seen === 0 ? 64 : 0)).length;
    });
    slow.write(
      Buffer.concat([greeting(), readyCommand({ 'Socket-Type': 'SUB' }), encodeMessage([Buffer.from([1])])]),
    );
    await until(() => pub.send([Buffer.from('ping')]) === 1);
    slow.pause();
    const block = Buffer.alloc(256 * 1024, 1);
    for (let i = 0; i < 200; i++) pub.send([block]);
    expect(pub.dropped).toBeGreaterThan(0);
  });

  it('counts its high-water mark in messages, as libzmq does, with a cap in bytes besides', async () => {
    const stalledPeer = async (pub: ZmtpPublisher) => {
      const peer = await rawPeer(pub.port, opened);
      subscribeAll(peer);
      await until(() => pub.send([Buffer.from('hello')]) === 1);
      peer.pause();
      return peer;
    };
    const big = Buffer.alloc(256 * 1024, 1);
    const small = Buffer.from('salt/job/1/ret/m1');
    // by count: big messages queued behind a stalled reader do not crowd out a small one
    const counted = (await publisher({ sendHighWaterMark: 100 })).pub;
    await stalledPeer(counted);
    for (let i = 0; i < 40; i++) counted.send([big]);
    expect(counted.dropped).toBe(0);
    expect(counted.send([small])).toBe(1);
    // ... until the count is reached
    for (let i = 0; i < 100; i++) counted.send([small]);
    expect(counted.dropped).toBeGreaterThan(0);
    // by bytes: a stopped reader holds at most maxQueuedBytes of the publisher's memory
    const capped = (await publisher({ sendHighWaterMark: 100_000, maxQueuedBytes: 4 * 1024 * 1024 })).pub;
    await stalledPeer(capped);
    for (let i = 0; i < 100; i++) capped.send([big]);
    // 4 MiB in the socket, and what the kernel takes besides
    expect(capped.dropped).toBeGreaterThan(50);
  });

  it('answers a ZMTP 3.1 PING with a PONG carrying its context', async () => {
    const { pub } = await publisher();
    const peer = await rawPeer(pub.port, opened);
    const frames: Buffer[] = [];
    framesOf(peer, (f) => f.command && frames.push(f.body));
    peer.write(
      Buffer.concat([
        greeting(),
        readyCommand({ 'Socket-Type': 'SUB' }),
        encodeCommand('PING', Buffer.from([0, 10, 97, 98])),
      ]),
    );
    await until(() => frames.length === 2);
    expect(frames[0]?.toString('latin1', 1, 6)).toBe('READY');
    expect(frames[1]?.toString('latin1')).toBe('\u0004PONGab');
  });

  it('disconnects a peer past 64 subscriptions, and close() reports every unsubscription before it resolves', async () => {
    const { pub, subs, errors, address } = await publisher();
    const greedy = await rawPeer(pub.port, opened);
    const topics = Array.from({ length: 65 }, (_, i) => encodeMessage([Buffer.from(`\u0001t${i}`)]));
    greedy.write(Buffer.concat([greeting(), readyCommand({ 'Socket-Type': 'SUB' }), ...topics]));
    await until(() => errors.length === 1);
    expect(errors[0]?.message).toMatch(/more than 64 subscriptions/);
    await until(() => subs.filter((s) => s.startsWith('0:')).length === 64);
    const sub = new Subscriber({ linger: 0 });
    opened.push(sub);
    sub.connect(address);
    sub.subscribe('mine');
    await until(() => subs.includes('1:mine'));
    await pub.close();
    expect(subs.at(-1)).toBe('0:mine');
  });

  it('names the address when the port is taken', async () => {
    const { pub } = await publisher();
    const second = new ZmtpPublisher({ sendHighWaterMark: 1 });
    await expect(second.bind('127.0.0.1', pub.port)).rejects.toMatchObject({
      code: 'SALT_ERR_BUS_ADDRESS_IN_USE',
      message: expect.stringContaining(`127.0.0.1:${pub.port}`),
    });
  });
});

describe('ZmtpPublisher with coalesce', () => {
  /** A publisher whose peers' sockets the test can see. */
  class Seen extends ZmtpPublisher {
    sockets() {
      return [...this.peers].map((p) => p.socket);
    }
  }

  it('writes the messages of one tick to a peer in one go, at the end of the tick', async () => {
    for (const coalesce of [true, false]) {
      const pub = new Seen({ sendHighWaterMark: 1000, coalesce });
      await pub.bind('127.0.0.1', 0);
      opened.push(pub);
      const peer = await rawPeer(pub.port, opened);
      const got: string[] = [];
      framesOf(peer, (f) => f.command || got.push(f.body.toString()));
      subscribeAll(peer);
      await until(() => pub.send([Buffer.from('first')]) === 1);
      await until(() => got.length > 0);
      got.length = 0;
      const [socket] = pub.sockets();
      for (let i = 0; i < 5; i++) expect(pub.send([Buffer.from(`m${i}`)])).toBe(1);
      // coalesced: all five wait in the corked socket for one write; else the kernel took each
      expect(socket?.writableLength).toBe(coalesce ? 5 * 4 : 0);
      await new Promise((r) => process.nextTick(r));
      expect(socket?.writableLength).toBe(0);
      await until(() => got.length === 5);
      expect(got).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
      expect(pub.dropped).toBe(0);
    }
  });
});
