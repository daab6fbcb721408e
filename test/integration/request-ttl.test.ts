/**
 * `request_server_ttl` (Salt's salt/channel/server.py): a signed-in minion whose clock is 2 h
 * behind sends an aes request (`_minion_event`) whose `ts` is 2 h old. Under a 60 s TTL the
 * master answers Salt's bare "bad load" and logs Salt's "expired ttl" line; with the default
 * (0, disabled) it is served, as Salt serves it. A request with the current time is served
 * either way, and the master keeps serving real minions.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReqClient } from '../../kernel/bus/req-client.js';
import { Crypticle } from '../../kernel/crypt/crypticle.js';
import { freshNonce } from '../../kernel/crypt/random-pool.js';
import { generateRsaKeyPair, x931Sign } from '../../kernel/crypt/rsa.js';
import { packNetwork, unpackNetwork } from '../../kernel/serial/index.js';
import { newAuthToken, signIn } from '../../minion/auth.js';
import { Cluster } from '../../tools/local-cluster.js';

const TWO_HOURS = 7200;

/** A fake minion signed in to `c`'s master that sends `_minion_event` loads stamped `ts`. */
async function skewedMinion(c: Cluster, id: string) {
  const keys = generateRsaKeyPair();
  const pkiDir = join(c.root, `fake-${id}`);
  mkdirSync(pkiDir, { recursive: true });
  const req = new ReqClient(`tcp://127.0.0.1:${c.retPort}`, { timeoutMs: 5000, tries: 1 });
  const outcome = await signIn({
    id,
    pkiDir,
    keys,
    masterUri: `tcp://127.0.0.1:${c.retPort}`,
    encAlgo: 'OAEP-SHA1',
    sigAlgo: 'PKCS1v15-SHA1',
    timeoutMs: 5000,
    token: newAuthToken(),
  });
  if (outcome.status !== 'accepted') throw new Error(`sign-in of ${id}: ${outcome.status}`);
  const session = new Crypticle(outcome.creds.session);
  const tok = x931Sign(keys.privatePem, Buffer.from('salt'));
  /** The reply: the decrypted load when the master served it, else its bare string. */
  const send = async (ts: unknown): Promise<unknown> => {
    const nonce = freshNonce();
    const load = { cmd: '_minion_event', id, tag: 'ttl/probe', data: {}, nonce, ts, tok };
    const frame = packNetwork({ enc: 'aes', load: session.dumps(load), version: 3, id });
    const reply = unpackNetwork(await req.request(frame));
    return typeof reply === 'string'
      ? reply
      : { served: session.loads(Buffer.from(reply as Uint8Array), nonce) };
  };
  return { send, close: () => req.close() };
}

const now = (): number => Math.floor(Date.now() / 1000);

describe('request_server_ttl: 60', () => {
  const c = new Cluster({ master: { request_server_ttl: 60 } });
  let fake: Awaited<ReturnType<typeof skewedMinion>>;

  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('real');
    fake = await skewedMinion(c, 'behind');
  }, 60_000);
  afterAll(async () => {
    fake?.close();
    await c.stop();
  });

  it('a request stamped 2 h ago gets "bad load" and the master logs the expired ttl', async () => {
    expect(await fake.send(now() - TWO_HOURS)).toBe('bad load');
    await c.master!.waitFor(/Received request from behind with expired ttl: 720\d > 60/);
  });

  it('a request without a usable ts is refused too', async () => {
    expect(await fake.send(undefined)).toBe('bad load');
    expect(await fake.send('yesterday')).toBe('bad load');
  });

  it('a request stamped now, or ahead of the master clock, is served', async () => {
    expect(await fake.send(now())).toEqual({ served: null });
    expect(await fake.send(now() + TWO_HOURS)).toEqual({ served: null });
  });

  it('a real minion still runs jobs', async () => {
    expect((await c.saltJson(['real', 'test.ping'])).data).toEqual({ real: true });
  });
});

describe('request_server_ttl by default (0: disabled, as in Salt)', () => {
  const c = new Cluster();
  let fake: Awaited<ReturnType<typeof skewedMinion>>;

  beforeAll(async () => {
    await c.startMaster();
    fake = await skewedMinion(c, 'behind');
  }, 60_000);
  afterAll(async () => {
    fake?.close();
    await c.stop();
  });

  it('a request stamped 2 h ago is served', async () => {
    expect(await fake.send(now() - TWO_HOURS)).toEqual({ served: null });
  });
});
