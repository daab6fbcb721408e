import { describe, expect, it } from 'vitest';
import {
  encodePeerFrame,
  FrameReader,
  FrameVerifier,
  MAX_PEER_FRAME,
  type PeerMessage,
} from './peer-frame.js';

const key = Buffer.alloc(32, 1);
const msg = { cluster: 'c1', from: 'm1', kind: 'event' as const, body: { tag: 't', data: { a: 1 } } };

function frames(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  new FrameReader((b) => out.push(Buffer.from(b))).push(bytes);
  return out;
}

describe('peer frames', () => {
  it('round-trips a message split across reads, two frames in one read', () => {
    const one = encodePeerFrame(key, msg);
    const two = encodePeerFrame(key, { ...msg, body: { tag: 'u', data: {} } });
    const got: Buffer[] = [];
    const reader = new FrameReader((b) => got.push(Buffer.from(b)));
    const all = Buffer.concat([one, two]);
    reader.push(all.subarray(0, 3));
    reader.push(all.subarray(3, one.length + 5));
    reader.push(all.subarray(one.length + 5));
    expect(got).toHaveLength(2);
    const v = new FrameVerifier(key, 'c1', 10_000);
    expect(v.verify(got[0]!)).toMatchObject({ ...msg });
    expect((v.verify(got[1]!) as PeerMessage).body.tag).toBe('u');
  });

  it('refuses another key, another cluster, a stale time and a replay', () => {
    const v = new FrameVerifier(key, 'c1', 10_000);
    const [other] = frames(encodePeerFrame(Buffer.alloc(32, 2), msg));
    expect(v.verify(other!)).toEqual({ refused: 'bad signature (another cluster key?)' });
    const [foreign] = frames(encodePeerFrame(key, { ...msg, cluster: 'c2' }));
    expect(v.verify(foreign!)).toEqual({ refused: 'another cluster_id (c2)' });
    const [stale] = frames(encodePeerFrame(key, { ...msg, t: Date.now() - 60_000 }));
    expect((v.verify(stale!) as { refused: string }).refused).toMatch(/too old/);
    const [fresh] = frames(encodePeerFrame(key, msg));
    expect(v.verify(fresh!)).toHaveProperty('kind', 'event');
    expect(v.verify(fresh!)).toEqual({ refused: 'replayed message' });
  });

  it('a tampered message fails its signature', () => {
    const [body] = frames(encodePeerFrame(key, msg));
    body![body!.length - 1]! ^= 1;
    expect(new FrameVerifier(key, 'c1', 10_000).verify(body!)).toEqual({
      refused: 'bad signature (another cluster key?)',
    });
  });

  it('a frame announcing more than the limit is an error', () => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(MAX_PEER_FRAME + 1);
    expect(() => new FrameReader(() => undefined).push(head)).toThrow(/a frame of/);
  });
});
