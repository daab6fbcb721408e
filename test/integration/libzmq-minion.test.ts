/**
 * A minion on libzmq's sockets (as a stock Salt minion is, through pyzmq) against a tsalt
 * master, whose publish and request ports speak ZMTP without libzmq (docs/transport.md): sign
 * in over a libzmq REQ, receive a publish on a libzmq SUB, return over a libzmq REQ. The
 * protocol steps are the kernel's own; only the sockets are libzmq's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Request, Subscriber } from 'zeromq';
import { presenceTopic, readPresence } from '../../kernel/bus/presence.js';
import { Crypticle } from '../../kernel/crypt/crypticle.js';
import { DEFAULT_ENC_ALGO, DEFAULT_SIG_ALGO, generateRsaKeyPair, x931Sign } from '../../kernel/crypt/rsa.js';
import { unpackNetwork } from '../../kernel/serial/index.js';
import { buildAesRequest } from '../../minion/aes-channel.js';
import { type Credentials, newAuthToken, signIn } from '../../minion/auth.js';
import type { JobData } from '../../minion/job-protocol.js';
import { decryptPublish, openEnvelope } from '../../minion/publish-decoder.js';
import { buildReturnLoad } from '../../minion/return-load.js';
import { Cluster } from '../../tools/local-cluster.js';

const ID = 'libzmq-minion';

describe('a minion on libzmq sockets against a tsalt master', () => {
  const c = new Cluster({ quiet: true, master: { auto_accept: true } });
  const pkiDir = mkdtempSync(join(tmpdir(), 'tsalt-libzmq-minion-'));
  const keys = generateRsaKeyPair();
  const sub = new Subscriber({ linger: 0 });
  let creds: Credentials;

  /** One request on a libzmq REQ socket of its own, as Salt's minion sends them. */
  async function libzmqRequest(frame: Buffer): Promise<Buffer> {
    const req = new Request({ linger: 0, receiveTimeout: 10_000 });
    req.connect(`tcp://127.0.0.1:${c.retPort}`);
    try {
      await req.send(frame);
      const [reply] = await req.receive();
      return reply as Buffer;
    } finally {
      req.close();
    }
  }

  beforeAll(async () => {
    await c.startMaster();
    const outcome = await signIn({
      id: ID,
      pkiDir,
      keys,
      masterUri: `tcp://127.0.0.1:${c.retPort}`,
      encAlgo: DEFAULT_ENC_ALGO,
      sigAlgo: DEFAULT_SIG_ALGO,
      timeoutMs: 10_000,
      token: newAuthToken(),
      send: libzmqRequest,
    });
    if (outcome.status !== 'accepted') throw new Error(`sign-in: ${JSON.stringify(outcome)}`);
    creds = outcome.creds;
    sub.connect(`tcp://127.0.0.1:${creds.publishPort}`);
    sub.subscribe('');
    sub.subscribe(presenceTopic(ID));
    // the master's publisher has heard the subscriptions once presence lists this minion
    const cachedir = join(c.root, 'var/cache/salt/master');
    for (let i = 0; i < 200 && !readPresence(cachedir)?.present.includes(ID); i++) await sleep(25);
  }, 60_000);

  afterAll(async () => {
    sub.close();
    await c.stop();
    rmSync(pkiDir, { recursive: true, force: true });
  });

  it('signs in, gets the publish and its return reaches `salt`', async () => {
    const answer = c.saltJson([ID, 'test.ping', '-t', '10']);
    const [frame] = await sub.receive();
    const opened = openEnvelope(frame as Buffer, creds.masterPub);
    if (!opened.ok) throw new Error(opened.reason);
    const decoded = decryptPublish(opened.enc, new Crypticle(creds.aes));
    if (!decoded.ok) throw new Error(decoded.reason);
    expect(decoded.load).toMatchObject({ fun: 'test.ping', tgt: ID });
    const job = { ...decoded.load, arg: [] } as unknown as JobData;
    const load = {
      ...buildReturnLoad(ID, job, { return: true, retcode: 0, success: true }),
      nonce: 'f'.repeat(32),
      ts: Math.floor(Date.now() / 1000),
      tok: x931Sign(keys.privatePem, Buffer.from('salt')),
      id: ID,
    };
    const session = new Crypticle(creds.session);
    const reply = await libzmqRequest(
      buildAesRequest(load, session, { id: ID, encAlgo: DEFAULT_ENC_ALGO, sigAlgo: DEFAULT_SIG_ALGO }),
    );
    // Salt's `_return` answers None, encrypted with the session key and bound to the nonce
    expect(session.loads(Buffer.from(unpackNetwork(reply) as Uint8Array), load.nonce)).toBeNull();
    const { data } = await answer;
    expect(data[ID]).toBe(true);
  });
});
