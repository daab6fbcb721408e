import { describe, expect, it } from 'vitest';
import { packIpc, unpackIpc } from '../kernel/serial/index.js';
import { REPLAY_MAX_PUBLISHES, REPLAY_PER_CONNECTION, ReplayBuffer } from './publish-replay.js';

/** A "frame" that is the load itself, so tests can read what would be sent. */
const wrap = (load: Record<string, unknown>) => packIpc(load);
const sent = (frames: Buffer[]) => frames.map((f) => unpackIpc(f) as Record<string, unknown>);

function add(b: ReplayBuffer, jid: string, tgt: unknown, tgtType: string, t = Date.now()) {
  const load = { jid, tgt, tgt_type: tgtType, fun: 'test.ping', arg: [], serial: Number(jid) };
  b.add(load, packIpc({ t, load }), wrap(load), t);
}

describe('ReplayBuffer', () => {
  it('replays only what is younger than the window', () => {
    const b = new ReplayBuffer(30, wrap);
    const now = Date.now();
    add(b, '1', '*', 'glob', now - 31_000);
    add(b, '2', '*', 'glob', now - 5_000);
    expect(sent(b.replayFor('m1')).map((l) => l.jid)).toEqual(['2']);
  });

  it('filters id targets by the minion id, and replays other targets to everyone', () => {
    const b = new ReplayBuffer(30, wrap);
    add(b, '1', ['m1', 'm2'], 'list');
    add(b, '2', 'web*', 'glob');
    add(b, '3', 'G@os:Debian', 'compound');
    add(b, '4', '^m[0-9]$', 'pcre');
    expect(sent(b.replayFor('m1')).map((l) => l.jid)).toEqual(['1', '3', '4']);
    expect(sent(b.replayFor('web1')).map((l) => l.jid)).toEqual(['2', '3']);
    // a minion that did not name itself matches for itself
    expect(sent(b.replayFor(undefined)).map((l) => l.jid)).toEqual(['1', '2', '3', '4']);
  });

  it('skips what the previous connection was sent live', () => {
    const b = new ReplayBuffer(30, wrap);
    for (const jid of ['1', '2', '3', '4']) add(b, jid, '*', 'glob');
    expect(sent(b.replayFor('m1', { from: 1, to: 3 })).map((l) => l.jid)).toEqual(['1', '4']);
  });

  it('replays at most REPLAY_PER_CONNECTION, the newest, oldest first', () => {
    const b = new ReplayBuffer(30, wrap);
    for (let i = 1; i <= REPLAY_PER_CONNECTION + 20; i++) add(b, String(i), '*', 'glob');
    const jids = sent(b.replayFor('m1')).map((l) => Number(l.jid));
    expect(jids.length).toBe(REPLAY_PER_CONNECTION);
    expect(jids[0]).toBe(21);
    expect(jids.at(-1)).toBe(REPLAY_PER_CONNECTION + 20);
  });

  it('keeps at most REPLAY_MAX_PUBLISHES', () => {
    const b = new ReplayBuffer(30, wrap);
    for (let i = 1; i <= REPLAY_MAX_PUBLISHES + 5; i++) add(b, String(i), '*', 'glob');
    expect(b.size).toBe(REPLAY_MAX_PUBLISHES);
    expect(b.records().length).toBe(REPLAY_MAX_PUBLISHES);
  });

  it('gives every publish kept a new, rising serial and frame', async () => {
    const b = new ReplayBuffer(30, wrap);
    add(b, '7', '*', 'glob');
    add(b, '9', '*', 'glob');
    let next = 0;
    await b.reserial(async () => ++next);
    expect(sent(b.replayFor('m1')).map((l) => l.serial)).toEqual([1, 2]);
    expect(b.records().map((r) => (unpackIpc(r) as { load: { serial: number } }).load.serial)).toEqual([
      1, 2,
    ]);
  });
});
