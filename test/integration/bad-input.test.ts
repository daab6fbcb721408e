import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReqClient } from '../../kernel/bus/req-client.js';
import { generateRsaKeyPair, rsaVerify } from '../../kernel/crypt/rsa.js';
import { packNetwork, unpackNetwork } from '../../kernel/serial/index.js';
import { Cluster } from '../../tools/local-cluster.js';
import { rawMinion } from '../support/raw-minion.js';

describe('hostile and malformed requests never crash the master', () => {
  const c = new Cluster();
  let req: ReqClient;
  const ask = async (frame: Buffer): Promise<unknown> => unpackNetwork(await req.request(frame));
  const keys = generateRsaKeyPair();

  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('good');
    req = new ReqClient(`tcp://127.0.0.1:${c.retPort}`, { timeoutMs: 5000, tries: 1 });
  });
  afterAll(async () => {
    req.close();
    await c.stop();
  });

  it.each([
    ['garbage bytes', Buffer.from([0xc1, 0xff, 0x00])],
    ['truncated msgpack', packNetwork({ enc: 'clear', load: { cmd: 'ping' } }).subarray(0, 10)],
    ['a non-map payload', packNetwork([1, 2, 3])],
    ['a map without load', packNetwork({ enc: 'clear', version: 3 })],
    ['an unknown enc', packNetwork({ enc: 'rot13', load: {}, version: 3 })],
    ['a pre-v3 request (downgrade)', packNetwork({ enc: 'clear', load: { cmd: 'ping' }, version: 2 })],
  ])('%s gets "bad load"', async (_name, frame) => {
    expect(await ask(frame)).toBe('bad load');
  });

  it('a clear load that is not a map is refused', async () => {
    expect(await ask(packNetwork({ enc: 'clear', load: 'x', version: 3 }))).toBe(
      'payload and load must be a dict',
    );
  });

  it.each(['_prep_pub', '__init__', '_return', 'nope'])(
    'unknown, private or aes-only clear cmd %s gets {}',
    async (cmd) => {
      expect(await ask(packNetwork({ enc: 'clear', load: { cmd }, version: 3 }))).toEqual({});
    },
  );

  it('aes requests from unknown, invalid or NUL ids are refused', async () => {
    const base = { enc: 'aes', load: Buffer.alloc(64), version: 3 };
    expect(await ask(packNetwork({ ...base, id: 'stranger' }))).toBe('bad load');
    expect(await ask(packNetwork({ ...base, id: '../x' }))).toBe('bad load');
    expect(await ask(packNetwork({ ...base, id: 'a\0b' }))).toBe('bad load: id contains a null byte');
  });

  it.each(['../x', 'a/b', '..', '', 'a\0b', '.'])(
    '_auth with id %j is refused and writes nothing',
    async (id) => {
      const nonce = randomUUID().replace(/-/g, '');
      const reply = (await ask(
        packNetwork({ enc: 'clear', load: { cmd: '_auth', id, nonce, pub: keys.publicPem }, version: 3 }),
      )) as { load: Buffer; sig: Buffer };
      const inner = unpackNetwork(reply.load) as { ret: unknown; nonce: string };
      expect(inner).toEqual({ ret: false, nonce });
      const pki = join(c.root, 'etc/salt/pki/master');
      expect(readdirSync(join(pki, 'minions_pre'))).toEqual([]);
      expect(readdirSync(join(pki, '..')).sort()).toEqual(['master']);
    },
  );

  it("_auth with an unsupported algorithm gets Salt's unsigned refusal", async () => {
    const reply = await ask(
      packNetwork({
        enc: 'clear',
        load: { cmd: '_auth', id: 'x1', nonce: 'n', enc_algo: 'OAEP-MD5', pub: keys.publicPem },
        version: 3,
      }),
    );
    expect(reply).toEqual({ enc: 'clear', load: { ret: 'bad enc algo' } });
  });

  it('a signed-in peer cannot replay a return, and a forged token is refused', async () => {
    const raw = await rawMinion(c.root, c.retPort, { id: 'replayer', timeoutMs: 5000 });
    const pub = await c.salt(['--async', 'good', 'test.ping']);
    const jid = /(\d{20})/.exec(pub.stdout)![1]!;
    const load = {
      cmd: '_return',
      id: 'replayer',
      jid,
      fun: 'test.ping',
      fun_args: [],
      return: 'forged?',
      retcode: 0,
      success: true,
      nonce: randomUUID().replace(/-/g, ''),
      ts: Math.floor(Date.now() / 1000),
      tok: raw.tok,
    };
    const frame = raw.frame(load);
    expect(await raw.request(frame, load.nonce)).toBe(null);
    await raw.request(frame);
    await c.master!.waitFor('an extra return was detected from minion replayer');

    expect(await ask(raw.frame({ ...load, tok: Buffer.alloc(256, 1) }))).toBe('bad load');
    expect(await ask(raw.frame({ ...load, id: 'good' }))).toBe('bad load');
    raw.close();
    expect(rsaVerify(keys.publicPem, Buffer.from('x'), Buffer.alloc(256))).toBe(false);
  });

  it('after all that, the master still serves jobs', async () => {
    const r = await c.saltJson(['good', 'test.ping']);
    expect(r.data).toEqual({ good: true });
    expect(c.master!.alive).toBe(true);
  });
});
