import { describe, expect, it } from 'vitest';
import { EventOutbox, type PeerEvent } from './event-outbox.js';
import type { PeerAddress } from './peer-address.js';

const peer = (host: string): PeerAddress => ({ host, port: 4520, entry: host });
const ev = (n: number): PeerEvent => ({ tag: `salt/job/20261127000000000000/ret/m${n}`, data: { n } });
const turn = () => new Promise((r) => setImmediate(r));

describe('EventOutbox', () => {
  it("sends each peer's events of one turn in one batch, in order", async () => {
    const sent: [string, number[]][] = [];
    const out = new EventOutbox((p, batch) =>
      sent.push([p.host, batch.map((e) => (e.data as { n: number }).n)]),
    );
    const a = peer('127.0.0.2');
    const b = peer('127.0.0.3');
    out.add(a, ev(1));
    out.add(b, ev(2));
    out.add(a, ev(3));
    expect(sent).toEqual([]);
    await turn();
    expect(sent).toEqual([
      ['127.0.0.2', [1, 3]],
      ['127.0.0.3', [2]],
    ]);
    out.add(a, ev(4));
    await turn();
    expect(sent.at(-1)).toEqual(['127.0.0.2', [4]]);
  });

  it('cuts a batch at its largest size, and flush sends the rest at once', async () => {
    const sizes: number[] = [];
    const out = new EventOutbox((_p, batch) => sizes.push(batch.length), 2);
    const a = peer('127.0.0.2');
    for (let i = 0; i < 5; i++) out.add(a, ev(i));
    expect(sizes).toEqual([2, 2]);
    out.flush();
    expect(sizes).toEqual([2, 2, 1]);
    await turn();
    expect(sizes).toEqual([2, 2, 1]);
  });
});
