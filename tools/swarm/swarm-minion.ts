/**
 * One simulated minion of the swarm: a full protocol peer with its own id, RSA key and
 * sockets. It reuses the minion's real code: the `_auth` sign-in (minion/auth.ts), the
 * publish decoder with the serial check (publish-decoder.ts), the aes request channel
 * (aes-channel.ts), Salt's target matching (kernel/targeting) and the module loader's own
 * functions (run-function.ts). What is swarm glue here, because the daemon's version is
 * per-process by nature (minion/daemon.ts keeps one minion's state in one closure):
 * the sign-in retry loop, the re-auth on a stale key, the return load (the daemon's field
 * order) and the start-up `_pillar` grains report (whose reply is not opened: swarm minions
 * have no pillar, which saves an RSA decryption per minion).
 */

import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { parseTcpAddress, tcpAddress } from '../../kernel/bus/address.js';
import { presenceTopic } from '../../kernel/bus/presence.js';
import { ReqClient } from '../../kernel/bus/req-client.js';
import { ZmtpSubscriber } from '../../kernel/bus/zmtp/sub-socket.js';
import { Crypticle } from '../../kernel/crypt/crypticle.js';
import type { EncAlgo, SigAlgo } from '../../kernel/crypt/rsa.js';
import type { Grains } from '../../kernel/loader/define.js';
import type { ModuleLoader } from '../../kernel/loader/index.js';
import { matchesTarget } from '../../kernel/targeting/match.js';
import { AesChannel, StaleSessionError } from '../../minion/aes-channel.js';
import { type Credentials, type MinionKeys, signIn } from '../../minion/auth.js';
import { pubData } from '../../minion/execute-job.js';
import { JidQueue } from '../../minion/jid-queue.js';
import type { JobData } from '../../minion/job-protocol.js';
import { KeptCrypticle } from '../../minion/kept-crypticle.js';
import { decryptPublish, openEnvelope } from '../../minion/publish-decoder.js';
import { buildReturnLoad } from '../../minion/return-load.js';
import { type FunctionResult, type RunEnv, runFunction } from '../../minion/run-function.js';
import { acceptSerial, type OpenedPublish, type Serial, type SharedPublishes } from './shared-publish.js';
import type { SwarmStats } from './swarm-protocol.js';

/** What all the minions of one worker process share. */
export interface SwarmShared {
  masterHost: string;
  retPort: number;
  publishPort?: number;
  /** One pki dir per worker: it holds only `minion_master.pub`, the same for every minion. */
  pkiDir: string;
  encAlgo: EncAlgo;
  sigAlgo: SigAlgo;
  authTimeoutMs: number;
  acceptanceWaitMs: number;
  returnTimeoutMs: number;
  returnTries: number;
  reportGrains: boolean;
  verifyPublishes: boolean;
  /** The worker's publishes opened once for all its minions (shared-publish.ts); unset: each minion opens its own. */
  publishes?: SharedPublishes;
  loader: ModuleLoader;
  opts: Readonly<Record<string, unknown>>;
  log: Logger;
  stats: SwarmStats;
  onError(message: string): void;
}

export { buildReturnLoad };

export class SwarmMinion {
  readonly id: string;
  readonly #keys: MinionKeys;
  readonly #grains: Grains;
  readonly #sh: SwarmShared;
  readonly #token = Crypticle.generateKeyString();
  readonly #jids = new JidQueue(100);
  readonly #stop = new AbortController();
  readonly #env: RunEnv;
  /** The minion's request connection: its sign-ins and aes requests share it, as the daemon's do. */
  readonly #requests: ReqClient;
  #creds: Credentials | undefined;
  #pub: Crypticle | undefined;
  /** The last publish serial accepted, when publishes are opened once per worker (else `#pub` keeps it). */
  #serial: Serial = 0;
  #channel: AesChannel | undefined;
  #sub: ZmtpSubscriber | undefined;
  #reauthing: Promise<void> | undefined;
  #stopped = false;

  constructor(id: string, keys: MinionKeys, grains: Grains, shared: SwarmShared) {
    this.id = id;
    this.#keys = keys;
    this.#grains = grains;
    this.#sh = shared;
    this.#env = { loader: shared.loader, opts: shared.opts, grains, id, log: shared.log };
    this.#requests = new ReqClient(tcpAddress(shared.masterHost, shared.retPort), {
      timeoutMs: shared.returnTimeoutMs,
      tries: shared.returnTries,
    });
  }

  get authenticated(): boolean {
    return this.#creds !== undefined;
  }

  /** Signs in until accepted (or stopped), as the daemon does: errors back off, pending waits. */
  async #authenticate(): Promise<Credentials> {
    const sh = this.#sh;
    let errors = 0;
    for (;;) {
      if (this.#stopped) throw new Error('minion stopped');
      const outcome = await signIn({
        id: this.id,
        pkiDir: sh.pkiDir,
        keys: this.#keys,
        masterUri: tcpAddress(sh.masterHost, sh.retPort),
        encAlgo: sh.encAlgo,
        sigAlgo: sh.sigAlgo,
        timeoutMs: sh.authTimeoutMs,
        token: this.#token,
        client: this.#requests,
      });
      if (outcome.status === 'accepted') return outcome.creds;
      this.#requests.disconnect();
      let waitMs: number;
      if (outcome.status === 'error') {
        errors++;
        sh.stats.errors++;
        sh.onError(`${this.id}: sign-in failed: ${outcome.message}`);
        waitMs = Math.min(1000 * 2 ** Math.min(errors - 1, 4), 10_000);
      } else {
        sh.stats.pending++;
        waitMs = sh.acceptanceWaitMs;
      }
      await sleep(waitMs, undefined, { signal: this.#stop.signal }).catch(() => undefined);
    }
  }

  #useCreds(creds: Credentials): void {
    if (!this.#creds) this.#sh.stats.authenticated++;
    this.#creds = creds;
    this.#pub = new KeptCrypticle(creds.aes);
    this.#serial = 0;
    this.#channel?.setSession(creds.session);
  }

  /** Signs in, connects the SUB socket and reports the grains. */
  async start(): Promise<void> {
    const sh = this.#sh;
    this.#useCreds(await this.#authenticate());
    const creds = this.#creds as Credentials;
    if (this.#stopped) return;
    this.#channel = new AesChannel({
      client: this.#requests,
      id: this.id,
      privatePem: this.#keys.privatePem,
      session: creds.session,
      encAlgo: sh.encAlgo,
      sigAlgo: sh.sigAlgo,
    });
    // the minion's own SUB socket (minion/daemon.ts uses the same), reconnecting as it does
    const sub = new ZmtpSubscriber({
      ...parseTcpAddress(tcpAddress(sh.masterHost, sh.publishPort ?? creds.publishPort)),
      reconnectMs: 1000,
      reconnectMaxMs: 10_000,
      onMessage: ([frame]) => {
        if (frame) void this.#onPublish(frame).catch((err: Error) => this.#fail(`publish: ${err.message}`));
      },
    });
    this.#sub = sub;
    sub.subscribe('');
    sub.subscribe(presenceTopic(this.id));
    sub.connect();
    sh.stats.subscribed++;
    if (sh.reportGrains) {
      try {
        await this.#send(
          {
            id: this.id,
            grains: this.#grains,
            saltenv: null,
            pillarenv: null,
            pillar_override: {},
            extra_minion_data: {},
            ver: '2',
            cmd: '_pillar',
          },
          true,
        );
      } catch (err) {
        this.#fail(`grains report: ${(err as Error).message}`);
      }
    }
  }

  #fail(message: string): void {
    this.#sh.stats.errors++;
    this.#sh.onError(`${this.id}: ${message}`);
  }

  #reauth(cause: 'reauthsPublish' | 'reauthsBadLoad' | 'reauthsDecrypt'): Promise<void> {
    this.#reauthing ??= (async () => {
      this.#sh.stats.reauths++;
      this.#sh.stats[cause]++;
      this.#useCreds(await this.#authenticate());
    })().finally(() => {
      this.#reauthing = undefined;
    });
    return this.#reauthing;
  }

  /** An aes request; a stale session signs in again once. `private` replies are not opened. */
  async #send(load: Record<string, unknown>, privateReply = false, timeoutMs?: number): Promise<unknown> {
    const channel = this.#channel;
    if (!channel) throw new Error('not signed in');
    const once = () =>
      privateReply ? channel.sendPrivate(load, { timeoutMs }) : channel.send(load, { timeoutMs });
    try {
      return await once();
    } catch (err) {
      if (!(err instanceof StaleSessionError)) throw err;
      await this.#reauth(err.message.endsWith('bad load') ? 'reauthsBadLoad' : 'reauthsDecrypt');
      return once();
    }
  }

  async #decode(frame: Buffer): Promise<Readonly<Record<string, unknown>> | undefined> {
    const shared = this.#sh.publishes;
    const verifyWith = this.#sh.verifyPublishes ? this.#creds?.masterPub : undefined;
    if (shared) {
      // the worker opens the frame once for all its minions; the serial check is this minion's
      let opened = shared.open(frame, this.#pub as Crypticle, verifyWith);
      if (!opened.ok && opened.reason === 'does not decrypt') {
        await this.#reauth('reauthsPublish');
        opened = shared.open(frame, this.#pub as Crypticle, verifyWith);
      }
      return this.#takeShared(opened);
    }
    const opened = openEnvelope(frame, verifyWith);
    if (!opened.ok) return undefined;
    let decoded = decryptPublish(opened.enc, this.#pub as Crypticle);
    if (!decoded.ok && decoded.reason === 'does not decrypt') {
      // the master's AES key changed (rotation or restart): sign in again and retry once
      await this.#reauth('reauthsPublish');
      decoded = decryptPublish(opened.enc, this.#pub as Crypticle);
    }
    return decoded.ok ? decoded.load : undefined;
  }

  /** A publish the worker opened: this minion's replay check, then its load (or nothing). */
  #takeShared(opened: OpenedPublish): Readonly<Record<string, unknown>> | undefined {
    if (opened.serial !== undefined) {
      const last = acceptSerial(opened.serial, this.#serial);
      if (last === undefined) return undefined;
      this.#serial = last;
    }
    return opened.ok ? opened.load : undefined;
  }

  async #run(
    job: JobData,
  ): Promise<FunctionResult | { return: unknown; retcode: unknown; success: unknown }> {
    if (!Array.isArray(job.fun))
      return runFunction(this.#env, String(job.fun), job.arg, job.jid, undefined, pubData(job));
    const ret: Record<string, unknown> = {};
    const retcode: Record<string, number> = {};
    const success: Record<string, boolean> = {};
    for (let i = 0; i < job.fun.length; i++) {
      const fun = String(job.fun[i]);
      const args = Array.isArray(job.arg[i]) ? (job.arg[i] as unknown[]) : [];
      const r = await runFunction(this.#env, fun, args, job.jid, undefined, pubData(job));
      ret[fun] = r.return;
      retcode[fun] = r.retcode;
      success[fun] = r.success;
    }
    return { return: ret, retcode, success };
  }

  async #onPublish(frame: Buffer): Promise<void> {
    const load = await this.#decode(frame);
    if (!load) return;
    const jid = String(load.jid);
    if (
      !matchesTarget(this.id, load.tgt, load.tgt_type, {
        grains: this.#grains,
        pillar: {},
        delimiter: load.delimiter,
      })
    )
      return;
    if (!this.#jids.add(jid)) return;
    const sh = this.#sh;
    sh.stats.jobs++;
    const job = { ...load, jid, arg: Array.isArray(load.arg) ? load.arg : [] } as JobData;
    const outcome = await this.#run(job);
    const timeoutMs = sh.returnTimeoutMs * (1 + Math.random());
    try {
      await this.#send(buildReturnLoad(this.id, job, outcome), false, timeoutMs);
      sh.stats.returns++;
    } catch (err) {
      this.#fail(`return of ${jid} not delivered: ${(err as Error).message}`);
    }
  }

  /** Closes the sockets; a sign-in under way gives up. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#stop.abort();
    // the counters keep what was reached: the final summary reports it
    this.#sub?.close();
    this.#requests.close();
  }
}
