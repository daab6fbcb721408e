/**
 * The salt-minion main process: sign in (waiting while pending), subscribe to publishes,
 * decrypt and drop replays, match targets, run jobs through the executor and send the
 * returns, re-authenticating by itself after an AES rotation or a master restart.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { parseTcpAddress, tcpAddress } from '../kernel/bus/address.js';
import { presenceTopic } from '../kernel/bus/presence.js';
import { ReqClient } from '../kernel/bus/req-client.js';
import { ZmtpSubscriber } from '../kernel/bus/zmtp/sub-socket.js';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import { Crypticle } from '../kernel/crypt/crypticle.js';
import { loadOrCreateKeyPair } from '../kernel/crypt/keys.js';
import { bootEnv, resolvedForChildren } from '../kernel/daemon/boot.js';
import { SALT_ERR_AUTH_REJECTED } from '../kernel/errors.js';
import { ensureDirs } from '../kernel/process/dirs.js';
import { removePidfile, writePidfile } from '../kernel/process/pidfile.js';
import { isStringMap } from '../kernel/serial/is-string-map.js';
import { matchesTarget } from '../kernel/targeting/match.js';
import { AesChannel, StaleSessionError } from './aes-channel.js';
import { type Credentials, minionAuthParams, newAuthToken, signIn } from './auth.js';
import { startBeacons } from './beacons.js';
import { startEngines } from './engines.js';
import { JobExecutor, jobProcessesMax } from './executor.js';
import { JidQueue } from './jid-queue.js';
import { minionGrainsView, runEnvWith } from './job-env.js';
import type { JobData } from './job-protocol.js';
import { jobReturnerNames, minionReturnerLoader, returnJobToReturners } from './job-returners.js';
import { primaryMaster } from './master-address.js';
import { clearMasterLink, type MasterLink, setMasterLink } from './master-link.js';
import { openPrivateReply } from './private-reply.js';
import { decryptPublish, openEnvelope } from './publish-decoder.js';
import { buildReturnLoad } from './return-load.js';

export interface MinionHandle {
  readonly id: string;
  stop(): Promise<void>;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Python's `time.asctime()` in local time: `Sun Nov 22 11:54:04 2026`. */
export function asctime(d: Date): string {
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getDay()]} ${MONTHS[d.getMonth()]} ${String(d.getDate()).padStart(2, ' ')} ${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())} ${d.getFullYear()}`;
}

function randomBetween(lo: number, hi: number): number {
  return lo + Math.random() * Math.max(0, hi - lo);
}

export async function startMinion(
  config: ResolvedMinionConfig,
  id: string,
  boot: { configDir: string; overrides: Record<string, unknown> },
  log: Logger,
): Promise<MinionHandle> {
  await ensureDirs([
    { path: config.pki_dir, mode: 0o700 },
    { path: config.cachedir },
    { path: config.sock_dir },
  ]);
  await writePidfile(config.pidfile);
  const keys = await loadOrCreateKeyPair(config.pki_dir, 'minion', 2048);
  if (keys.created) log.info({ pki_dir: config.pki_dir }, 'generated the minion key pair');
  const masterHost = primaryMaster(config.master);
  const masterUri = tcpAddress(masterHost, config.master_port);
  const token = newAuthToken();
  let stopped = false;
  const stopSignal = new AbortController();
  // the minion's one request connection to the master: sign-ins and aes requests share it
  const requests = new ReqClient(masterUri, {
    timeoutMs: config.return_retry_timer * 1000,
    tries: config.return_retry_tries,
  });

  const authParams = minionAuthParams(config, { id, keys, masterUri, token, client: requests });

  /** Signs in until accepted (or stopped); pending waits `acceptance_wait_time`, doubling up to the max. */
  async function authenticate(): Promise<Credentials> {
    let wait = config.acceptance_wait_time;
    let errors = 0;
    for (;;) {
      if (stopped) throw new Error('minion stopped');
      const outcome = await signIn(authParams);
      if (outcome.status === 'accepted') return outcome.creds;
      // no idle connection held open on the master while waiting (Salt's minion holds none)
      requests.disconnect();
      if (outcome.status === 'rejected' && !config.rejected_retry) throw new SALT_ERR_AUTH_REJECTED(id);
      if (outcome.status === 'error') {
        errors++;
        log.warn({ master: masterUri, err: outcome.message, attempt: errors }, 'sign-in failed; retrying');
        await sleep(Math.min(1000 * 2 ** Math.min(errors - 1, 4), 10_000), undefined, {
          signal: stopSignal.signal,
        }).catch(() => undefined);
        continue;
      }
      log.info({ status: outcome.status, wait }, 'the master has not accepted this minion key yet; waiting');
      await sleep(wait * 1000, undefined, { signal: stopSignal.signal }).catch(() => undefined);
      if (config.acceptance_wait_time_max > 0) wait = Math.min(wait * 2, config.acceptance_wait_time_max);
    }
  }

  let creds: Credentials;
  try {
    creds = await authenticate();
  } catch (err) {
    requests.close();
    throw err;
  }
  log.info({ master: masterUri }, 'authenticated with the master');
  let pubCrypticle = new Crypticle(creds.aes);
  const channel = new AesChannel({
    client: requests,
    id,
    privatePem: keys.privatePem,
    session: creds.session,
    encAlgo: config.encryption_algorithm,
    sigAlgo: config.signing_algorithm,
  });

  let reauthing: Promise<void> | undefined;
  function reauth(): Promise<void> {
    reauthing ??= (async () => {
      log.info('re-authenticating with the master');
      creds = await authenticate();
      pubCrypticle = new Crypticle(creds.aes);
      channel.setSession(creds.session);
    })().finally(() => {
      reauthing = undefined;
    });
    return reauthing;
  }

  /** Sends an aes load, re-authenticating once when the session is stale. */
  async function sendToMaster(
    load: Record<string, unknown>,
    opts: { timeoutMs?: number } = {},
  ): Promise<unknown> {
    try {
      return await channel.send(load, opts);
    } catch (err) {
      if (!(err instanceof StaleSessionError)) throw err;
      await reauth();
      return channel.send(load, opts);
    }
  }

  // the minion's grains (core < custom grain modules < grains file < config): reported to the
  // master, used for targeting, shared with in-process jobs, and re-reported when a job changes
  // them (Salt's refresh_grains)
  let grainsView = await minionGrainsView(config, id, log);
  const returners = minionReturnerLoader(config, log);
  const executor = new JobExecutor({
    multiprocessing: config.multiprocessing,
    env: bootEnv({
      kind: 'minion',
      configDir: boot.configDir,
      overrides: { ...boot.overrides, id },
      resolved: resolvedForChildren(config),
    }),
    cachedir: config.cachedir,
    log,
    runEnv: () => runEnvWith(config, id, log, grainsView),
    maxJobs: config.process_count_max,
    maxProcesses: jobProcessesMax(config.job_processes_max),
    masterRequest: (load) => sendToMaster(load),
    inline: (job) => config.inline_functions && jobReturnerNames(job, config).length === 0,
    // synced grain modules: recompute this process's grains and report them
    onRecycle: () => {
      void minionGrainsView(config, id, log)
        .then((view) => {
          grainsView = view;
          return refreshGrainsIfChanged();
        })
        .catch((err) => log.warn({ err: (err as Error).message }, 'grains not recomputed'));
    },
  });
  // functions running in this process (multiprocessing off) reach the master directly
  const link: MasterLink = {
    inProcess: !config.multiprocessing,
    request: (load) => sendToMaster(load),
    recycle: () => executor.recycle(),
  };
  setMasterLink(id, link);
  const jids = new JidQueue(config.minion_jid_queue_hwm);
  let grains = grainsView.current();
  let pillar: unknown = {};

  /** Reports the grains and fetches the pillar (Salt's `_pillar`). */
  async function refreshPillar(): Promise<void> {
    const { reply, nonce } = await channel.sendPrivate({
      id,
      grains,
      saltenv: null,
      pillarenv: null,
      pillar_override: {},
      extra_minion_data: {},
      ver: '2',
      cmd: '_pillar',
    });
    pillar = openPrivateReply(reply, 'pillar', {
      minionPem: keys.privatePem,
      masterPub: creds.masterPub,
      nonce,
    });
    log.debug({ keys: isStringMap(pillar) ? Object.keys(pillar).length : 0 }, 'pillar received');
  }

  /** After a job: if the grains changed (grains.setval, a new grains file), tell the master. */
  async function refreshGrainsIfChanged(): Promise<void> {
    const now = grainsView.current();
    if (now === grains) return;
    grains = now;
    try {
      await refreshPillar();
      log.info('grains changed: reported to the master');
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'changed grains not reported');
    }
  }

  async function sendReturn(job: JobData, outcome: Awaited<ReturnType<JobExecutor['run']>>): Promise<void> {
    const load = buildReturnLoad(id, job, outcome);
    const timeoutMs = randomBetween(config.return_retry_timer, config.return_retry_timer_max) * 1000;
    try {
      await sendToMaster(load, { timeoutMs });
    } catch (err) {
      log.error(
        { jid: job.jid, err: (err as Error).message },
        'the return could not be delivered to the master',
      );
    }
  }

  async function decode(frame: Buffer): Promise<Record<string, unknown> | undefined> {
    const opened = openEnvelope(frame, config.sign_pub_messages ? creds.masterPub : undefined);
    if (!opened.ok) {
      log.warn({ reason: opened.reason }, 'publish dropped');
      return undefined;
    }
    let decoded = decryptPublish(opened.enc, pubCrypticle);
    if (!decoded.ok && decoded.reason === 'does not decrypt') {
      // the master's AES key changed (rotation or restart): sign in again once and retry
      try {
        await reauth();
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'publish could not be decrypted');
        return undefined;
      }
      decoded = decryptPublish(opened.enc, pubCrypticle);
    }
    if (!decoded.ok) {
      log.debug({ reason: decoded.reason }, 'publish dropped');
      return undefined;
    }
    return decoded.load;
  }

  async function onPublish(frame: Buffer): Promise<void> {
    const load = await decode(frame);
    if (!load) return;
    const jid = String(load.jid);
    if (!matchesTarget(id, load.tgt, load.tgt_type, { grains, pillar, delimiter: load.delimiter })) {
      log.debug({ jid, tgt: load.tgt, tgt_type: load.tgt_type }, 'publish not for this minion');
      return;
    }
    if (!jids.add(jid)) {
      log.debug({ jid }, 'duplicate jid ignored');
      return;
    }
    const job = { ...load, jid, arg: Array.isArray(load.arg) ? load.arg : [] } as JobData;
    log.info({ jid, fun: job.fun }, 'executing job');
    const outcome = await executor.run(job);
    await sendReturn(job, outcome);
    await refreshGrainsIfChanged();
    // Job processes call the job's returners themselves; in-process jobs have theirs called here.
    if (!config.multiprocessing) await returnJobToReturners(returners, config, id, job, outcome, log);
  }

  const sub = new ZmtpSubscriber({
    ...parseTcpAddress(tcpAddress(masterHost, creds.publishPort)),
    reconnectMs: Math.round(
      randomBetween(
        config.recon_default,
        config.recon_default + (config.recon_randomize ? config.recon_max : 0),
      ),
    ),
    reconnectMaxMs: config.recon_max,
    onMessage: ([frame]) => {
      if (frame) void onPublish(frame).catch((err) => log.error({ err }, 'publish handling failed'));
    },
    onDisconnect: (err) => log.debug({ err: err.message }, 'publish connection lost; reconnecting'),
  });
  sub.subscribe('');
  // announces this minion's connection to the master's publisher (kernel/bus/presence.ts)
  sub.subscribe(presenceTopic(id));
  sub.connect();

  const startData = `Minion ${id} started at ${asctime(new Date())}`;
  void (async () => {
    try {
      // As a Salt minion does at start: report the grains (the master caches them for
      // targeting) and fetch the pillar.
      await refreshPillar();
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'pillar not received');
    }
    try {
      if (config.enable_legacy_startup_events) {
        await sendToMaster({ cmd: '_minion_event', pretag: null, data: startData, tag: 'minion_start' });
      }
      await sendToMaster({
        cmd: '_minion_event',
        pretag: null,
        data: startData,
        tag: `salt/minion/${id}/start`,
      });
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'start event not delivered');
    }
  })();
  const beacons =
    Object.keys(config.beacons).length > 0
      ? await startBeacons({
          id,
          beacons: config.beacons,
          opts: config as unknown as Readonly<Record<string, unknown>>,
          dirs: [join(config.extension_modules, 'beacons'), ...config.beacons_dirs],
          packages: [...config.extensions],
          loopInterval: config.loop_interval,
          grains: () => grainsView.current(),
          send: (load) => sendToMaster(load),
          log,
        })
      : undefined;
  // minion-side engines: one child each, restarted with backoff (minion/engines.ts)
  const engines = startEngines({
    id,
    engines: config.engines,
    config,
    boot,
    send: (load) => sendToMaster(load),
    log,
  });
  log.info({ id, master: masterUri }, 'salt-minion started');

  return {
    id,
    async stop() {
      if (stopped) return;
      stopped = true;
      stopSignal.abort();
      beacons?.stop();
      await engines?.stop();
      sub.close();
      channel.close();
      clearMasterLink(id, link);
      await executor.close();
      await removePidfile(config.pidfile);
      log.info('salt-minion stopped');
    },
  };
}
