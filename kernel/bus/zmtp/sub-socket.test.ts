import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Publisher } from 'zeromq';
import { closeAfterEach, until } from '../../../test/support/zmtp-kit.js';
import { freePort } from '../../process/ports.js';
import { ZmtpPublisher } from './pub-server.js';
import { ZmtpSubscriber } from './sub-socket.js';

const opened = closeAfterEach();

function subscriber(port: number, got: string[], topics: string[]): ZmtpSubscriber {
  const sub = new ZmtpSubscriber({
    host: '127.0.0.1',
    port,
    reconnectMs: 50,
    onMessage: (parts) => got.push(parts.map((p) => p.toString()).join('|')),
  });
  for (const t of topics) sub.subscribe(t);
  sub.connect();
  opened.push(sub);
  return sub;
}

describe('ZmtpSubscriber', () => {
  it('subscribes to a libzmq PUB (a Salt master) and gets only matching publishes', async () => {
    const port = await freePort();
    const pub = new Publisher({ linger: 0 });
    await pub.bind(`tcp://127.0.0.1:${port}`);
    opened.push(pub);
    const got: string[] = [];
    subscriber(port, got, ['job']);
    // a SUB joins a moment after it connects: publish until the first arrives
    await until(() => {
      void pub.send(['job', '1']);
      return got.length > 0;
    });
    await pub.send('other');
    await pub.send(['job', '2']);
    await until(() => got.includes('job|2'));
    expect(got.every((g) => g.startsWith('job|'))).toBe(true);
  });

  it('subscribes again after the publisher restarts on the same port', async () => {
    const subs: string[] = [];
    const start = async (port = 0) => {
      const p = new ZmtpPublisher({
        sendHighWaterMark: 100,
        onSubscription: (m) => subs.push(m.toString('latin1', 1)),
      });
      await p.bind('127.0.0.1', port);
      return p;
    };
    const first = await start();
    const port = first.port;
    const got: string[] = [];
    subscriber(port, got, ['', '\u0000presence/me']);
    await until(() => subs.length === 2);
    first.send([Buffer.from('before')]);
    await until(() => got.includes('before'));
    await first.close();
    subs.length = 0;
    const second = await start(port);
    opened.push(second);
    await until(() => subs.length === 2);
    expect(subs).toEqual(['', '\u0000presence/me']);
    second.send([Buffer.from('after')]);
    await until(() => got.includes('after'));
  });

  it('keeps trying a publisher that is not up yet, and stops on close()', async () => {
    const port = await freePort();
    const errors: Error[] = [];
    const sub = new ZmtpSubscriber({
      host: '127.0.0.1',
      port,
      reconnectMs: 20,
      reconnectMaxMs: 40,
      onMessage: () => undefined,
      onDisconnect: (e) => errors.push(e),
    });
    sub.subscribe('');
    sub.connect();
    await until(() => errors.length >= 3);
    sub.close();
    const seen = errors.length;
    await sleep(150);
    expect(errors.length).toBe(seen);
  });
});
