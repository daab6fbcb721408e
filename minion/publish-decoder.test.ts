import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Crypticle } from '../kernel/crypt/crypticle.js';
import { packNetwork } from '../kernel/serial/index.js';
import { wrapPublish } from '../master/publish-envelope.js';
import { blob, loadVectors, SALT_VECTORS_DIR } from '../test/conformance/vectors.js';
import { decryptPublish, openEnvelope } from './publish-decoder.js';

const masterPem = readFileSync(join(SALT_VECTORS_DIR, 'keys/master.pem'), 'utf8');
const masterPub = readFileSync(join(SALT_VECTORS_DIR, 'keys/master.pub'), 'utf8');
const recorded = loadVectors('publish') as {
  master_aes_key_string: string;
  publishes: { frame: { b64: string } }[];
};

function decode(frame: Uint8Array, aes: Crypticle, verify?: string) {
  const opened = openEnvelope(frame, verify);
  return opened.ok ? decryptPublish(opened.enc, aes) : opened;
}

describe('minion publish decoding', () => {
  const aes = () => new Crypticle(recorded.master_aes_key_string);
  const job = {
    fun: 'test.ping',
    arg: [],
    tgt: '*',
    jid: '20261122000000000001',
    ret: '',
    tgt_type: 'glob',
    user: 'root',
  };

  it('decodes a publish frame recorded from a real Salt master, signature checked', () => {
    const r = decode(blob(recorded.publishes[0]!.frame), aes(), masterPub);
    expect(r.ok && r.load.fun).toBe('test.arg');
  });

  it('drops a replayed frame (same serial twice on one key)', () => {
    const a = aes();
    const frame = wrapPublish({ ...job, serial: 5 }, new Crypticle(recorded.master_aes_key_string), {
      signWith: masterPem,
    });
    expect(decode(frame, a).ok).toBe(true);
    expect(decode(frame, a)).toEqual({ ok: false, reason: 'replayed or not a publish' });
    const older = wrapPublish({ ...job, serial: 4 }, new Crypticle(recorded.master_aes_key_string));
    expect(decode(older, a)).toEqual({ ok: false, reason: 'replayed or not a publish' });
  });

  it.each([
    ['garbage', Buffer.from([0xc1, 0x00]), 'undecodable'],
    ['a non-map', packNetwork([1, 2]), 'not an aes envelope'],
    ['a clear envelope', packNetwork({ enc: 'clear', load: {} }), 'not an aes envelope'],
    ['an aes envelope without bytes', packNetwork({ enc: 'aes', load: 5 }), 'not an aes envelope'],
    [
      'a load under another key',
      packNetwork({ enc: 'aes', load: new Crypticle(Crypticle.generateKeyString()).dumps(job) }),
      'does not decrypt',
    ],
  ])('drops %s with a reason', (_name, frame, reason) => {
    expect(decode(frame, aes())).toEqual({ ok: false, reason });
  });

  it('with sign_pub_messages, drops a frame whose signature does not verify', () => {
    const unsigned = wrapPublish({ ...job, serial: 9 }, aes());
    expect(decode(unsigned, aes(), masterPub)).toEqual({ ok: false, reason: 'bad signature' });
  });

  it('drops a decryptable load without the publish fields', () => {
    const frame = wrapPublish({ serial: 1, fun: 'test.ping' }, aes());
    expect(decode(frame, aes())).toEqual({ ok: false, reason: 'missing tgt, jid, fun or arg' });
  });
});
