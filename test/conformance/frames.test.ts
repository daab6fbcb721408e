/**
 * tsalt's own frame builders and request handlers against frames recorded from real Salt
 * 3006.18: where Salt is deterministic (given the recorded nonce, IV and keys) tsalt must
 * produce the same bytes; where it is not, Salt's peer must accept what tsalt produces.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ResolvedMasterConfig } from '../../kernel/config/index.js';
import { Crypticle } from '../../kernel/crypt/crypticle.js';
import { oaepDecrypt, rsaVerify, x931Recover } from '../../kernel/crypt/rsa.js';
import { silentLogger } from '../../kernel/log.js';
import { packIpc, packNetwork, unpackIpc, unpackNetwork } from '../../kernel/serial/index.js';
import { createHandlerEnv } from '../../master/handler-env.js';
import { wrapPublish } from '../../master/publish-envelope.js';
import { RequestHandler } from '../../master/request-handler.js';
import { sessionKeyPath } from '../../master/session-keys.js';
import { buildAesRequest } from '../../minion/aes-channel.js';
import { buildAuthRequest } from '../../minion/auth.js';
import { openPrivateReply } from '../../minion/private-reply.js';
import { blob, fromTagged, loadVectors, SALT_VECTORS_DIR } from './vectors.js';

type Blob = { b64: string; iv_hex?: string; decoded?: unknown };
const keysDir = join(SALT_VECTORS_DIR, 'keys');
const masterPem = readFileSync(join(keysDir, 'master.pem'), 'utf8');
const masterPub = readFileSync(join(keysDir, 'master.pub'), 'utf8');
const minionPem = readFileSync(join(keysDir, 'minion.pem'), 'utf8');
const minionPub = readFileSync(join(keysDir, 'minion.pub'), 'utf8');

const publish = loadVectors('publish') as {
  master_aes_key_string: string;
  publishes: { encrypted_load: Blob; plaintext: Blob; frame: Blob; jid: string }[];
};
const ret = loadVectors('return') as {
  session_key_string?: string;
  returns: { request: Blob; request_encrypted_load: Blob; decrypted_load: unknown; reply: Blob }[];
};
const auth = loadVectors('auth') as {
  variants: Record<
    string,
    { request: Blob; reply: Blob; request_token_plaintext: string | null; session_key_string: string }
  >;
};
const jids = loadVectors('jid') as {
  real_job_dirs: { jid: string; files: { name: string; file: Blob }[] }[];
};

describe('frames tsalt builds are byte-identical to Salt 3006.18', () => {
  it.each(publish.publishes.map((p, i) => [i, p] as const))('publish frame %i', (_i, p) => {
    const load = fromTagged(p.plaintext.decoded) as Record<string, unknown>;
    const frame = wrapPublish(load, new Crypticle(publish.master_aes_key_string), {
      signWith: masterPem,
      iv: Buffer.from(p.encrypted_load.iv_hex!, 'hex'),
    });
    expect(frame.equals(blob(p.frame))).toBe(true);
  });

  it.each(ret.returns.map((r, i) => [i, r] as const))('minion aes request %i (_return)', (_i, r) => {
    const session = auth.variants.first_contact!.session_key_string;
    const load = fromTagged(r.decrypted_load) as Record<string, unknown>;
    const frame = buildAesRequest(load, new Crypticle(session), {
      id: String(load.id),
      encAlgo: 'OAEP-SHA1',
      sigAlgo: 'PKCS1v15-SHA1',
      iv: Buffer.from(r.request_encrypted_load.iv_hex!, 'hex'),
    });
    expect(frame.equals(blob(r.request))).toBe(true);
  });

  it.each(Object.entries(auth.variants))('_auth request (%s)', (_name, v) => {
    const req = fromTagged(v.request.decoded) as { load: Record<string, unknown> };
    const l = req.load;
    const frame = buildAuthRequest({
      id: String(l.id),
      nonce: String(l.nonce),
      encAlgo: 'OAEP-SHA1',
      sigAlgo: 'PKCS1v15-SHA1',
      token: l.token as Buffer | undefined,
      publicPem: minionPub,
    });
    expect(frame.equals(blob(v.request))).toBe(true);
  });

  it.each(jids.real_job_dirs.map((j) => [j.jid, j] as const))('job cache return.p of %s', (_jid, j) => {
    const f = j.files.find((x) => x.name.endsWith('/return.p'))!;
    const value = fromTagged(f.file.decoded) as Record<string, unknown>;
    expect(
      packIpc({ return: value.return, retcode: value.retcode, success: value.success }).equals(blob(f.file)),
    ).toBe(true);
  });
});

describe('the tsalt minion opens replies recorded from a real Salt master', () => {
  it('the private _pillar reply (key, signature and nonce checked)', () => {
    const p = (loadVectors('return') as { pillar: { reply: Blob; decrypted_load: unknown } }).pillar;
    const sent = fromTagged(p.decrypted_load) as { nonce: string };
    const reply = unpackNetwork(blob(p.reply));
    const pillar = openPrivateReply(reply, 'pillar', { minionPem, masterPub, nonce: sent.nonce });
    expect(pillar).toEqual({});
    expect(() => openPrivateReply(reply, 'pillar', { minionPem, masterPub, nonce: 'x'.repeat(32) })).toThrow(
      /nonce/,
    );
  });
});

describe('the tsalt master answers requests recorded from a real Salt minion', () => {
  let root: string;
  let handler: RequestHandler;
  let config: ResolvedMasterConfig;

  async function setup(autoAccept: boolean, acceptVm1: boolean): Promise<void> {
    root = mkdtempSync(join(tmpdir(), 'tsalt-frames-'));
    roots.push(root);
    mkdirSync(join(root, 'etc'), { recursive: true });
    writeFileSync(
      join(root, 'etc/master'),
      `root_dir: ${root}\nauto_accept: ${autoAccept}\npublish_port: 24505\n`,
    );
    ({ config } = await loadConfig('master', join(root, 'etc')));
    const pki = config.pki_dir;
    for (const d of ['minions', 'minions_pre', 'minions_rejected', 'minions_denied'])
      mkdirSync(join(pki, d), { recursive: true });
    copyFileSync(join(keysDir, 'master.pem'), join(pki, 'master.pem'));
    copyFileSync(join(keysDir, 'master.pub'), join(pki, 'master.pub'));
    if (acceptVm1) copyFileSync(join(keysDir, 'minion.pub'), join(pki, 'minions/vm1'));
    mkdirSync(join(config.cachedir, 'sessions'), { recursive: true });
    writeFileSync(sessionKeyPath(config.cachedir, 'vm1'), auth.variants.first_contact!.session_key_string);
    writeFileSync(
      join(config.cachedir, '.aes'),
      JSON.stringify({ key: publish.master_aes_key_string, generation: 'g', created: Date.now() }),
    );
    handler = new RequestHandler(await createHandlerEnv(config, silentLogger()));
  }

  const roots: string[] = [];
  afterAll(() => {
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  describe('an accepted minion', () => {
    beforeAll(() => setup(false, true));

    it("signs in: the reply verifies, decrypts and echoes the token as Salt's minion requires", async () => {
      const v = auth.variants.normal!;
      const { reply, effects } = await handler.handle(blob(v.request));
      // handed to the router thread, which opens the minion's next requests itself
      expect(effects.signIns).toEqual([
        {
          id: 'vm1',
          pub: minionPub.trim(),
          session: v.session_key_string,
          pubMtimeMs: expect.any(Number),
          sessionMtimeMs: expect.any(Number),
        },
      ]);
      const outer = unpackNetwork(reply) as { enc: string; load: Uint8Array; sig: Uint8Array };
      expect(outer.enc).toBe('clear');
      expect(rsaVerify(masterPub, Buffer.from(outer.load), Buffer.from(outer.sig))).toBe(true);
      const inner = unpackNetwork(outer.load) as Record<string, unknown>;
      expect(Object.keys(inner)).toEqual([
        'enc',
        'pub_key',
        'publish_port',
        'token',
        'aes',
        'session',
        'sig',
        'nonce',
      ]);
      const sent = fromTagged(v.request.decoded) as { load: { nonce: string } };
      expect(inner.nonce).toBe(sent.load.nonce);
      expect(inner.pub_key).toBe(masterPub.trim());
      const aes = oaepDecrypt(minionPem, Buffer.from(inner.aes as Uint8Array)).toString();
      expect(aes).toBe(publish.master_aes_key_string);
      const digest = (await import('node:crypto')).createHash('sha256').update(aes).digest('hex');
      expect(x931Recover(masterPub, Buffer.from(inner.sig as Uint8Array)).toString()).toBe(digest);
      expect(oaepDecrypt(minionPem, Buffer.from(inner.token as Uint8Array)).toString()).toBe(
        v.request_token_plaintext,
      );
      expect(oaepDecrypt(minionPem, Buffer.from(inner.session as Uint8Array)).toString()).toBe(
        v.session_key_string,
      );
    });

    it.each(ret.returns.map((r, i) => [i, r] as const))(
      "stores return %i and fires Salt's ret event",
      async (_i, r) => {
        const { reply, effects } = await handler.handle(blob(r.request));
        const expected = fromTagged(r.decrypted_load) as Record<string, unknown>;
        const session = new Crypticle(auth.variants.first_contact!.session_key_string);
        const bytes = unpackNetwork(reply);
        expect(session.loads(Buffer.from(bytes as Uint8Array), String(expected.nonce))).toBe(null);
        const ev = effects.events.find((e) => e.tag.includes('/ret/'))!;
        const { nonce: _n, tok: _t, ...rest } = expected;
        if (rest.jid === 'req') {
          expect(ev.tag).toMatch(/^salt\/job\/\d{20}\/ret\/vm1$/);
          delete rest.jid;
          delete (ev.data as Record<string, unknown>).jid;
        } else expect(ev.tag).toBe(`salt/job/${String(expected.jid)}/ret/vm1`);
        // the worker re-stamps `_stamp` in place when it fires the event, as Salt's master does
        expect(packNetwork({ ...ev.data, _stamp: rest._stamp }).equals(packNetwork(rest))).toBe(true);
      },
    );
  });

  describe('the recorded _pillar request', () => {
    beforeAll(() => setup(false, true));
    it("caches the minion's grains and answers in the private form a Salt minion opens", async () => {
      const p = (loadVectors('return') as { pillar: { request: Blob; decrypted_load: unknown } }).pillar;
      const { reply, effects } = await handler.handle(blob(p.request));
      const sent = fromTagged(p.decrypted_load) as { nonce: string; grains: Record<string, unknown> };
      expect(
        openPrivateReply(unpackNetwork(reply), 'pillar', { minionPem, masterPub, nonce: sent.nonce }),
      ).toEqual({});
      expect(effects.events).toEqual([
        { tag: 'minion/refresh/vm1', data: { 'Minion data cache refresh': 'vm1' } },
      ]);
      const cached = unpackIpc(readFileSync(join(config.cachedir, 'minions/vm1/data.p'))) as {
        grains: unknown;
      };
      expect(packNetwork(cached.grains).equals(packNetwork(sent.grains))).toBe(true);
    });
  });

  describe("the request server's router thread (handleLight)", () => {
    beforeAll(() => setup(false, true));

    it('answers a recorded _return itself, as a worker would', async () => {
      const r = ret.returns[0]!;
      const handled = await handler.handleLight(blob(r.request));
      if ('left' in handled) throw new Error('a _return was left to a worker');
      const expected = fromTagged(r.decrypted_load) as Record<string, unknown>;
      const session = new Crypticle(auth.variants.first_contact!.session_key_string);
      const reply = unpackNetwork(handled.reply) as Uint8Array;
      expect(session.loads(Buffer.from(reply), String(expected.nonce))).toBe(null);
      expect(handled.effects.events.map((e) => e.tag)).toEqual([expect.stringMatching(/\/ret\/vm1$/)]);
    });

    it('leaves a sign-in and _pillar to a worker, having done nothing', async () => {
      const p = (loadVectors('return') as { pillar: { request: Blob } }).pillar;
      expect(await handler.handleLight(blob(p.request))).toEqual({
        left: true,
        vouched: { pub: minionPub, session: auth.variants.first_contact!.session_key_string },
      });
      expect(existsSync(join(config.cachedir, 'minions/vm1/data.p'))).toBe(false);
      expect(await handler.handleLight(blob(auth.variants.normal!.request))).toEqual({ left: true });
    });

    it("a worker answers the _pillar it was left on the router thread's word, key files gone", async () => {
      const p = (loadVectors('return') as { pillar: { request: Blob; decrypted_load: unknown } }).pillar;
      const left = await handler.handleLight(blob(p.request));
      const vouched = 'left' in left ? left.vouched : undefined;
      expect(vouched).toBeDefined();
      rmSync(join(config.pki_dir, 'minions/vm1'));
      rmSync(sessionKeyPath(config.cachedir, 'vm1'));
      // a fresh handler: no key cached, as in a worker thread that never saw vm1
      const worker = new RequestHandler(await createHandlerEnv(config, silentLogger()));
      const sent = fromTagged(p.decrypted_load) as { nonce: string };
      const { reply } = await worker.handle(blob(p.request), vouched);
      expect(
        openPrivateReply(unpackNetwork(reply), 'pillar', { minionPem, masterPub, nonce: sent.nonce }),
      ).toEqual({});
      // without the word, the same worker finds no key and refuses
      expect(unpackNetwork((await worker.handle(blob(p.request))).reply)).toBe('bad load');
      // the word names the session: a wrong one does not open the load
      const wrong = { pub: vouched!.pub, session: Crypticle.generateKeyString() };
      expect(unpackNetwork((await worker.handle(blob(p.request), wrong)).reply)).toBe(
        'Some exception handling minion payload',
      );
    });
  });

  describe('the router thread of a master with no cores to spare (handleMinion)', () => {
    beforeAll(() => setup(false, true));

    it("takes a minion's sign-in, _pillar and a user's publish by glob itself, and leaves other users' commands to a worker", async () => {
      const v = auth.variants.normal!;
      const signIn = await handler.handleMinion(blob(v.request));
      expect('left' in signIn).toBe(false);
      const { reply, effects } = signIn as Awaited<ReturnType<RequestHandler['handle']>>;
      expect(effects.signIns.map((s) => s.id)).toEqual(['vm1']);
      const load = unpackNetwork((unpackNetwork(reply) as { load: Buffer }).load) as { session: Buffer };
      expect(oaepDecrypt(minionPem, load.session).toString()).toBe(v.session_key_string);

      const p = (loadVectors('return') as { pillar: { request: Blob; decrypted_load: unknown } }).pillar;
      const pillar = await handler.handleMinion(blob(p.request));
      expect('left' in pillar).toBe(false);
      const sent = fromTagged(p.decrypted_load) as { nonce: string };
      expect(
        openPrivateReply(unpackNetwork((pillar as { reply: Buffer }).reply), 'pillar', {
          minionPem,
          masterPub,
          nonce: sent.nonce,
        }),
      ).toEqual({});
      expect(existsSync(join(config.cachedir, 'minions/vm1/data.p'))).toBe(true);

      // a clear command that is not a sign-in goes to a worker, even with an id in its load; but a
      // publish targeting by glob or list only reads the key list, and is taken here
      const user = (load: Record<string, unknown>) =>
        handler.handleMinion(
          packNetwork({ enc: 'clear', load: { id: 'vm1', fun: 'test.ping', ...load }, version: 3 }),
        );
      expect(await user({ cmd: 'runner', fun: 'jobs.list_jobs' })).toEqual({ left: true });
      expect(await user({ cmd: 'publish', tgt: 'os:Linux', tgt_type: 'grain' })).toEqual({ left: true });
      const byGlob = await user({ cmd: 'publish', tgt: '*', key: 'not the key' });
      expect('left' in byGlob).toBe(false);
      const refused = unpackNetwork((byGlob as { reply: Buffer }).reply) as { error?: { name: string } };
      expect(refused.error?.name).toBe('AuthenticationError');
    });
  });

  describe('an unknown minion on a master without auto_accept', () => {
    beforeAll(() => setup(false, false));
    it('gets the same pending reply bytes Salt sent', async () => {
      const v = auth.variants.pending!;
      const { reply, effects } = await handler.handle(blob(v.request));
      expect(reply.equals(blob(v.reply))).toBe(true);
      expect(effects.events).toEqual([
        { tag: 'salt/auth', data: { result: true, act: 'pend', id: 'vm1', pub: minionPub.trim() } },
      ]);
      expect(readFileSync(join(config.pki_dir, 'minions_pre/vm1'), 'utf8').trim()).toBe(minionPub.trim());
    });
  });
});
