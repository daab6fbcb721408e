import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Push } from 'zeromq';
import { closeAfterEach, until } from '../../../test/support/zmtp-kit.js';
import { ZmtpPublisher } from './pub-server.js';
import { ZmtpPuller } from './pull-server.js';
import { ZmtpPusher } from './push-socket.js';
import { ZmtpSubscriber } from './sub-socket.js';

const opened = closeAfterEach();
const dir = mkdtempSync(join(tmpdir(), 'tsalt-pull-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ZmtpPuller', () => {
  it('takes messages from libzmq PUSH and our own pushers on a unix socket, over a stale socket file', async () => {
    const path = join(dir, 'pull.ipc');
    writeFileSync(path, 'left by a process that died');
    const got: string[] = [];
    const errors: Error[] = [];
    const pull = new ZmtpPuller({
      onMessage: (parts) => got.push(parts.map((p) => p.toString()).join('|')),
      onPeerError: (e) => errors.push(e),
    });
    await pull.bindPath(path);
    opened.push(pull);
    const libzmq = new Push({ linger: 0 });
    libzmq.connect(`ipc://${path}`);
    opened.push(libzmq);
    const ours = new ZmtpPusher({ path });
    opened.push(ours);
    await libzmq.send(['a', 'b']);
    ours.send([Buffer.from('c'), Buffer.from('d')]);
    await until(() => got.length === 2);
    expect(got.sort()).toEqual(['a|b', 'c|d']);
    expect(errors).toEqual([]);
  });

  it('disconnects a pusher whose message is over its cap, and serves the others', async () => {
    const path = join(dir, 'cap.ipc');
    const got: number[] = [];
    const errors: string[] = [];
    const pull = new ZmtpPuller({
      maxFrameBytes: 1000,
      onMessage: ([p]) => got.push(p?.length ?? -1),
      onPeerError: (e) => errors.push(e.message),
    });
    await pull.bindPath(path);
    opened.push(pull);
    const big = new ZmtpPusher({ path, reconnectMs: 5000 });
    const small = new ZmtpPusher({ path });
    opened.push(big, small);
    big.send(Buffer.alloc(5000));
    await until(() => errors.length > 0);
    small.send(Buffer.alloc(10));
    await until(() => got.length === 1);
    expect(got).toEqual([10]);
  });
});

describe('ZmtpServer.close()', () => {
  it('finishes while clients keep connecting', async () => {
    const path = join(dir, 'closing.ipc');
    const pull = new ZmtpPuller({ onMessage: () => undefined });
    await pull.bindPath(path);
    const sockets: Socket[] = [];
    const knocking = setInterval(() => {
      const s = connect({ path });
      s.on('error', () => undefined);
      sockets.push(s);
    }, 0);
    try {
      await new Promise((r) => setTimeout(r, 50));
      const closed = pull.close().then(() => 'closed');
      expect(await Promise.race([closed, new Promise((r) => setTimeout(() => r('hung'), 3000))])).toBe(
        'closed',
      );
    } finally {
      clearInterval(knocking);
      for (const s of sockets) s.destroy();
    }
  });
});

describe('ZmtpPublisher reporting every subscription (the event bus)', () => {
  it('reports each subscriber, and each one that leaves', async () => {
    const path = join(dir, 'pub.ipc');
    const reports: string[] = [];
    const pub = new ZmtpPublisher({
      sendHighWaterMark: 100,
      reportEverySubscription: true,
      onSubscription: (m) => reports.push(`${m[0]}${m.toString('latin1', 1)}`),
    });
    await pub.bindPath(path);
    opened.push(pub);
    const a = new ZmtpSubscriber({ path, onMessage: () => undefined });
    const b = new ZmtpSubscriber({ path, onMessage: () => undefined });
    for (const s of [a, b]) {
      s.subscribe('x/');
      s.connect();
    }
    await until(() => reports.length === 2);
    b.close();
    await until(() => reports.length === 3);
    a.unsubscribe('x/');
    await until(() => reports.length === 4);
    a.close();
    expect(reports).toEqual(['1x/', '1x/', '0x/', '0x/']);
  });
});
