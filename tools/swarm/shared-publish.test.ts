import { describe, expect, it } from 'vitest';
import { Crypticle } from '../../kernel/crypt/crypticle.js';
import { packNetwork } from '../../kernel/serial/index.js';
import { decryptPublish, openEnvelope } from '../../minion/publish-decoder.js';
import { acceptSerial, openPublish, SharedPublishes } from './shared-publish.js';

const key = Crypticle.generateKeyString();
const master = new Crypticle(key);
const frameOf = (load: Record<string, unknown>, aes = master): Buffer =>
  packNetwork({ enc: 'aes', load: aes.dumps(load) });
const job = { tgt: '*', tgt_type: 'glob', jid: '20261128120000000001', fun: 'test.ping', arg: [] };

/** What a minion that opens every publish itself (`Crypticle.loads`, decryptPublish) makes of frames in turn. */
function alone(frames: Buffer[]): (string | undefined)[] {
  const aes = new Crypticle(key);
  return frames.map((f) => {
    const env = openEnvelope(f);
    if (!env.ok) return env.reason;
    const d = decryptPublish(env.enc, aes);
    return d.ok ? String(d.load.jid) : d.reason;
  });
}

/** The same through the worker's shared opening and the minion's own serial. */
function shared(frames: Buffer[], publishes = new SharedPublishes()): (string | undefined)[] {
  const aes = new Crypticle(key);
  let last: bigint | number = 0;
  return frames.map((f) => {
    const o = publishes.open(f, aes);
    if (o.serial !== undefined) {
      const next = acceptSerial(o.serial, last);
      if (next === undefined) return 'replayed or not a publish';
      last = next;
    }
    return o.ok ? String(o.load.jid) : o.reason;
  });
}

describe('publishes opened once per swarm worker', () => {
  it('drops and accepts exactly what a minion opening each publish itself does', () => {
    const frames = [
      frameOf({ ...job, serial: 5 }),
      frameOf({ ...job, jid: '2', serial: 5 }), // replay of serial 5
      frameOf({ ...job, jid: '3', serial: 4 }), // older
      frameOf({ ...job, jid: '4', serial: 6 }),
      frameOf({ ...job, jid: '5' }), // no serial: accepted
      frameOf({ serial: 9 }), // empty after the serial: dropped, the serial kept
      frameOf({ ...job, jid: '6', serial: 8 }), // below 9 now
      frameOf({ ...job, jid: '7', serial: 'x' }),
      frameOf({ tgt: '*', serial: 10 }), // fields missing
      frameOf({ ...job, jid: '8', serial: 11 }),
      frameOf({ ...job, jid: '9', serial: 12 }, new Crypticle(Crypticle.generateKeyString())),
      packNetwork({ enc: 'clear', load: 'x' }),
      Buffer.from('not msgpack'),
    ];
    expect(shared(frames)).toEqual(alone(frames));
    expect(alone(frames)).toEqual([
      job.jid,
      'replayed or not a publish',
      'replayed or not a publish',
      '4',
      '5',
      'replayed or not a publish',
      'replayed or not a publish',
      'replayed or not a publish',
      'missing tgt, jid, fun or arg',
      '8',
      'does not decrypt',
      'not an aes envelope',
      'undecodable',
    ]);
  });

  it('opens a frame once for many minions, each checking its own serial, and shares a frozen load', () => {
    const publishes = new SharedPublishes();
    const frame = frameOf({ ...job, serial: 1 });
    for (let m = 0; m < 3; m++) expect(shared([frame], publishes)).toEqual([job.jid]);
    // one minion that has seen it already drops it as a replay
    expect(shared([frame, Buffer.from(frame)], publishes)).toEqual([job.jid, 'replayed or not a publish']);
    expect(publishes.opened).toBe(1);
    expect(publishes.reused).toBe(4);
    const o = openPublish(frame, master);
    expect(o.ok && Object.isFrozen(o.load) && Object.isFrozen(o.load.arg)).toBe(true);
  });

  it('opens a frame again for a minion holding another AES key (after a rotation)', () => {
    const publishes = new SharedPublishes();
    const frame = frameOf({ ...job, serial: 1 });
    expect(publishes.open(frame, new Crypticle(key)).ok).toBe(true);
    const stale = publishes.open(frame, new Crypticle(Crypticle.generateKeyString()));
    expect(stale).toMatchObject({ ok: false, reason: 'does not decrypt' });
    expect(publishes.opened).toBe(2);
  });
});
