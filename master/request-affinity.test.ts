import { describe, expect, it } from 'vitest';
import { packNetwork } from '../kernel/serial/index.js';
import { affinityHash, peekRequest } from './request-affinity.js';

/** The minion id a request frame carries, as the request server reads it. */
const requestMinionId = (frame: Uint8Array): string | undefined => peekRequest(frame).id;

describe('peekRequest: the minion id', () => {
  it('reads the outer id of an aes request', () => {
    const frame = packNetwork({ enc: 'aes', load: Buffer.alloc(300, 7), id: 'web-01', version: 3 });
    expect(requestMinionId(frame)).toBe('web-01');
  });

  it('reads the id inside the load of a clear _auth', () => {
    const frame = packNetwork({
      enc: 'clear',
      load: { cmd: '_auth', pub: 'x'.repeat(450), token: Buffer.alloc(256), id: 'db-7', nonce: 'n' },
      version: 3,
    });
    expect(requestMinionId(frame)).toBe('db-7');
  });

  it('prefers the outer id and handles long ids (str8/str16)', () => {
    const long = 'm'.repeat(40);
    expect(requestMinionId(packNetwork({ load: { id: 'inner' }, id: long }))).toBe(long);
    const longer = 'n'.repeat(300);
    expect(requestMinionId(packNetwork({ enc: 'clear', load: { id: longer } }))).toBe(longer);
  });

  it('is undefined for user commands and for what is not a request map', () => {
    expect(
      requestMinionId(packNetwork({ enc: 'clear', load: { cmd: 'publish', tgt: '*' } })),
    ).toBeUndefined();
    expect(requestMinionId(packNetwork('bad'))).toBeUndefined();
    expect(requestMinionId(packNetwork({ id: 5 }))).toBeUndefined();
    expect(requestMinionId(new Uint8Array([0x82, 0xa2]))).toBeUndefined();
    expect(requestMinionId(new Uint8Array([0x81, 0xc1, 0x01]))).toBeUndefined();
    expect(requestMinionId(new Uint8Array())).toBeUndefined();
  });

  it('skips values of every kind before the id', () => {
    const frame = packNetwork({ a: [1, { b: 2.5 }, null], c: Buffer.alloc(70000), d: -1, id: 'late' });
    expect(requestMinionId(frame)).toBe('late');
  });
});

describe('peekRequest', () => {
  it("marks a signed-in minion's aes request, whatever the key order", () => {
    expect(
      peekRequest(packNetwork({ enc: 'aes', load: Buffer.alloc(40), id: 'web-01', version: 3 })),
    ).toEqual({
      id: 'web-01',
      aes: true,
    });
    expect(peekRequest(packNetwork({ version: 3, id: 'web-02', load: Buffer.alloc(4), enc: 'aes' }))).toEqual(
      {
        id: 'web-02',
        aes: true,
      },
    );
  });

  it('does not mark a sign-in, a user command, an aes request without an id, or a non-string enc', () => {
    const signIn = packNetwork({ enc: 'clear', load: { cmd: '_auth', id: 'db-7' }, version: 3 });
    expect(peekRequest(signIn)).toEqual({ id: 'db-7', aes: false });
    expect(
      peekRequest(packNetwork({ enc: 'clear', load: { cmd: 'runner', fun: 'jobs.list_jobs' } })),
    ).toEqual({
      id: undefined,
      aes: false,
    });
    expect(peekRequest(packNetwork({ enc: 'aes', load: Buffer.alloc(4) })).aes).toBe(false);
    expect(peekRequest(packNetwork({ enc: 1, load: Buffer.alloc(4), id: 'm' })).aes).toBe(false);
    expect(peekRequest(new Uint8Array([0x81, 0xa3, 0x65, 0x6e]))).toEqual({ id: undefined, aes: false });
  });
});

describe('peekRequest: a publish the router thread may take', () => {
  const publish = (load: Record<string, unknown>) =>
    peekRequest(
      packNetwork({ enc: 'clear', load: { cmd: 'publish', tgt: '*', key: 'k', ...load }, version: 3 }),
    );

  it('marks a publish targeting by glob (given or by default) or list', () => {
    expect(publish({})).toEqual({ id: undefined, aes: false, publish: true });
    expect(publish({ tgt_type: 'glob' }).publish).toBe(true);
    expect(publish({ tgt_type: 'list', tgt: ['a', 'b'] }).publish).toBe(true);
  });

  it('leaves a publish whose targeting may read the minion data cache, a peer publish, other commands', () => {
    for (const tgt_type of ['grain', 'pillar', 'compound', 'nodegroup', 'ipcidr', 7])
      expect(publish({ tgt_type }).publish).toBeUndefined();
    // a minion's peer publish carries its id: a minion request, not a user's
    expect(publish({ id: 'm1' })).toEqual({ id: 'm1', aes: false });
    expect(
      peekRequest(packNetwork({ enc: 'clear', load: { cmd: 'wheel', tgt_type: 'glob' } })).publish,
    ).toBeUndefined();
  });
});

describe('affinityHash', () => {
  it('is stable and spreads ids over workers', () => {
    expect(affinityHash('swarm-0001')).toBe(affinityHash('swarm-0001'));
    const counts = [0, 0, 0, 0, 0];
    for (let i = 0; i < 5000; i++) {
      const k = affinityHash(`swarm-${String(i).padStart(4, '0')}`) % 5;
      counts[k] = (counts[k] ?? 0) + 1;
    }
    for (const n of counts) expect(n).toBeGreaterThan(800);
  });
});
