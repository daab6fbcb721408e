import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Pull, XPublisher } from 'zeromq';
import { closeAfterEach, until } from '../../../test/support/zmtp-kit.js';
import { freePort } from '../../process/ports.js';
import { ZmtpPusher } from './push-socket.js';
import { ZmtpSubscriber } from './sub-socket.js';

const opened = closeAfterEach();
const dir = mkdtempSync(join(tmpdir(), 'tsalt-push-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A libzmq PULL bound at `address`, collecting what it receives as `part|part`. */
async function puller(address: string, got: string[]): Promise<Pull> {
  const pull = new Pull({ linger: 0 });
  await pull.bind(address);
  opened.push(pull);
  void (async () => {
    for await (const parts of pull) got.push(parts.map((p) => p.toString()).join('|'));
  })().catch(() => undefined);
  return pull;
}

describe('ZmtpPusher', () => {
  it('pushes to a libzmq PULL over a unix socket, holding what was sent before the peer came up', async () => {
    const path = join(dir, 'early.ipc');
    const push = new ZmtpPusher({ path, reconnectMs: 20 });
    opened.push(push);
    expect(push.send(Buffer.from('one'))).toBe(true);
    expect(push.send([Buffer.from('two'), Buffer.from('parts')])).toBe(true);
    expect(push.queued).toBe(2);
    const got: string[] = [];
    await puller(`ipc://${path}`, got);
    await until(() => got.length === 2);
    push.send(Buffer.from('three'));
    await until(() => got.length === 3);
    expect(got).toEqual(['one', 'two|parts', 'three']);
    expect(push.dropped).toBe(0);
  });

  it('connects again after the peer goes away, over TCP too', async () => {
    const port = await freePort();
    const address = `tcp://127.0.0.1:${port}`;
    const disconnects: string[] = [];
    const push = new ZmtpPusher({
      host: '127.0.0.1',
      port,
      reconnectMs: 20,
      reconnectMaxMs: 40,
      onDisconnect: (e) => disconnects.push(e.message),
    });
    opened.push(push);
    const first: string[] = [];
    const pull = await puller(address, first);
    push.send(Buffer.from('a'));
    await until(() => first.length === 1);
    pull.close();
    await until(() => disconnects.length > 0);
    const second: string[] = [];
    // the bind may find the port taken for a moment: libzmq releases the old listener on its own
    // thread, and the pusher, redialing every 20 ms a port of the ephemeral range that nobody
    // listens on, can connect to itself there (and drops that at once)
    for (let tries = 0; ; tries++) {
      try {
        await puller(address, second);
        break;
      } catch (err) {
        if (tries >= 50 || !/in use/i.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    // a message written just as the old connection died may be lost, as with libzmq: send
    // until the new connection carries one
    await until(() => {
      push.send(Buffer.from('b'));
      return second.length > 0;
    });
    expect(second[0]).toBe('b');
  });

  it('drops past its high-water mark while nobody listens, and counts what close() could not send', async () => {
    const push = new ZmtpPusher({ path: join(dir, 'nobody.ipc'), hwm: 3, reconnectMs: 20 });
    for (let i = 0; i < 5; i++) push.send(Buffer.from(String(i)));
    expect(push.queued).toBe(3);
    expect(push.dropped).toBe(2);
    const t0 = Date.now();
    await push.close(50);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(push.dropped).toBe(5);
    expect(push.send(Buffer.from('late'))).toBe(false);
  });

  it('close() waits for what is queued to reach the peer', async () => {
    const path = join(dir, 'linger.ipc');
    const got: string[] = [];
    await puller(`ipc://${path}`, got);
    const push = new ZmtpPusher({ path });
    const big = Buffer.alloc(256 * 1024, 7);
    for (let i = 0; i < 20; i++) push.send(big);
    await push.close(5000);
    await until(() => got.length === 20);
    expect(push.dropped).toBe(0);
  });

  it('delivers a burst sent in one turn in order, and close(0) right after it loses none', async () => {
    const path = join(dir, 'burst.ipc');
    const got: string[] = [];
    await puller(`ipc://${path}`, got);
    const push = new ZmtpPusher({ path, reconnectMs: 20 });
    opened.push(push);
    push.send(Buffer.from('hello'));
    await until(() => got.length === 1);
    // the first message of a turn goes out at once, the rest are held until the turn ends
    for (let i = 0; i < 500; i++) push.send([Buffer.from('m'), Buffer.from(String(i))]);
    await until(() => got.length === 501);
    expect(got.slice(1)).toEqual(Array.from({ length: 500 }, (_, i) => `m|${i}`));
    // a burst, then close without linger: what the turn held is handed to the kernel first
    for (let i = 0; i < 50; i++) push.send(Buffer.from(`last${i}`));
    await push.close(0);
    await until(() => got.length === 551);
    expect(got.at(-1)).toBe('last49');
    expect(push.dropped).toBe(0);
  });

  it('refuses a peer that is not a PULL', async () => {
    const path = join(dir, 'xpub.ipc');
    const xpub = new XPublisher({ linger: 0 });
    await xpub.bind(`ipc://${path}`);
    opened.push(xpub);
    const errors: string[] = [];
    const push = new ZmtpPusher({ path, reconnectMs: 1000, onDisconnect: (e) => errors.push(e.message) });
    opened.push(push);
    push.send(Buffer.from('never'));
    await until(() => errors.length > 0);
    // we refuse its READY, or libzmq hangs up first on seeing ours
    expect(errors[0]).toMatch(/XPUB socket cannot talk to this socket|closed by the peer/);
    expect(push.queued).toBe(1);
  });
});

describe('ZmtpSubscriber over a unix socket', () => {
  it('subscribes and unsubscribes at a libzmq XPUB', async () => {
    const path = join(dir, 'sub.ipc');
    const xpub = new XPublisher({ linger: 0, verbosity: 'allSubsUnsubs' });
    await xpub.bind(`ipc://${path}`);
    opened.push(xpub);
    const reports: string[] = [];
    void (async () => {
      for await (const [m] of xpub) if (m) reports.push(`${m[0]}${m.subarray(1).toString()}`);
    })().catch(() => undefined);
    const got: string[] = [];
    const sub = new ZmtpSubscriber({
      path,
      onMessage: (p) => got.push(p.map((b) => b.toString()).join('|')),
    });
    opened.push(sub);
    sub.subscribe('a/');
    sub.subscribe('b/');
    sub.connect();
    await until(() => reports.includes('1a/') && reports.includes('1b/'));
    await xpub.send(['a/x', '1']);
    await xpub.send('c/x');
    await until(() => got.length === 1);
    sub.unsubscribe('a/');
    await until(() => reports.includes('0a/'));
    await xpub.send('a/y');
    await xpub.send('b/z');
    await until(() => got.includes('b/z'));
    expect(got).toEqual(['a/x|1', 'b/z']);
  });
});
