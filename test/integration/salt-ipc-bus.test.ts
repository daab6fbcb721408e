/**
 * Salt's own event listener (`salt.utils.event.get_event(..., listen=True)`, Salt 3006's
 * IPCMessageSubscriber) on a tsalt minion's and master's bus: it connects to the pub path,
 * sends nothing, and reads msgpack `{"head": {}, "body": <tag>\n\n<data>}` maps, byte for byte
 * what a Salt 3006 minion's bus sends (minion/salt-ipc-pub.ts). tsalt's ZMTP listeners share
 * the path (the `salt` CLI below waits for its returns on the master bus). Real master and
 * minion; the listener is a plain unix socket, as Salt's is.
 */
import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEventBody } from '../../kernel/serial/index.js';
import { Cluster } from '../../tools/local-cluster.js';

const HEAD = Buffer.from([0x82, 0xa4, ...Buffer.from('head'), 0x80, 0xa4, ...Buffer.from('body')]);

/** A Salt-style subscriber: reads the stream and splits it into event bodies. */
function saltListener(path: string) {
  const sock: Socket = connect({ path });
  let buf = Buffer.alloc(0);
  const events: Array<{ tag: string; data: Record<string, unknown> }> = [];
  let bad = '';
  sock.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (buf.length < HEAD.length + 2) return;
      if (!buf.subarray(0, HEAD.length).equals(HEAD)) {
        bad ||= buf.subarray(0, 16).toString('hex');
        return;
      }
      const t = buf[HEAD.length];
      const at = HEAD.length + 1;
      const [size, n] =
        t === 0xc4 ? [1, buf[at] ?? 0] : t === 0xc5 ? [2, buf.readUInt16BE(at)] : [4, buf.readUInt32BE(at)];
      if (buf.length < at + size + n) return;
      const ev = decodeEventBody(buf.subarray(at + size, at + size + n));
      events.push({ tag: ev.tag, data: ev.data as Record<string, unknown> });
      buf = buf.subarray(at + size + n);
    }
  });
  sock.on('error', () => undefined);
  return {
    events,
    bad: () => bad,
    close: () => sock.destroy(),
    async waitFor(pred: (tag: string) => boolean, ms = 10_000) {
      const end = Date.now() + ms;
      while (!events.some((e) => pred(e.tag)) && !bad && Date.now() < end)
        await new Promise((r) => setTimeout(r, 50));
      return events.find((e) => pred(e.tag));
    },
  };
}

describe("Salt's IPC event listener on tsalt's buses", () => {
  const c = new Cluster();

  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('ipc1');
  }, 90_000);
  afterAll(() => c.stop());

  it("reads the minion's bus as a Salt minion's, beside tsalt's own listeners", async () => {
    const hash = createHash('sha256').update('ipc1').digest('hex').slice(0, 10);
    const sockDir = join(c.root, 'minions', 'ipc1', 'var', 'run', 'salt', 'minion');
    const l = saltListener(join(sockDir, `minion_event_${hash}_pub.ipc`));
    await new Promise((r) => setTimeout(r, 400));
    const r = await c.saltJson(['ipc1', 'event.fire', '{"a": 1, "b": "two"}', 'compat10/x']);
    expect(r.data).toEqual({ ipc1: true });
    const ev = await l.waitFor((tag) => tag === 'compat10/x');
    l.close();
    expect(l.bad()).toBe('');
    expect(ev?.data).toMatchObject({ a: 1, b: 'two' });
    expect(typeof ev?.data._stamp).toBe('string');
  }, 60_000);

  it("reads the master's bus the same way", async () => {
    const l = saltListener(join(c.root, 'var', 'run', 'salt', 'master', 'master_event_pub.ipc'));
    await new Promise((r) => setTimeout(r, 400));
    const r = await c.saltJson(['ipc1', 'test.ping']);
    expect(r.data).toEqual({ ipc1: true });
    const ev = await l.waitFor((tag) => /^salt\/job\/\d+\/ret\/ipc1$/.test(tag));
    l.close();
    expect(l.bad()).toBe('');
    expect(ev?.data).toMatchObject({ id: 'ipc1', fun: 'test.ping', return: true });
  }, 60_000);
});
