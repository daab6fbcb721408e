/**
 * The salt-minion main process: sign in (waiting while pending), subscribe to publishes,
 * decrypt and drop replays, match targets, run jobs through the executor and send the
 * returns, re-authenticating by itself after an AES rotation or a master restart. Its steps,
 * each a function below: the connection to the master (master-connection.ts), the grains and
 * the job executor, the publish intake, the start-up report, and the beacons and engines.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import { parseTcpAddress, tcpAddress } from '../kernel/bus/address.js';
import { presenceTopic } from '../kernel/bus/presence.js';
import { ZmtpSubscriber } from '../kernel/bus/zmtp/sub-socket.js';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import { loadOrCreateKeyPair } from '../kernel/crypt/keys.js';
import { bootEnv, resolvedForChildren } from '../kernel/daemon/boot.js';
import { genJid } from '../kernel/jid.js';
import type { Kernel } from '../kernel/kernel.js';
import type { PillarAsk } from '../kernel/loader/define.js';
import { ensureDirs } from '../kernel/process/dirs.js';
import { removePidfile, writePidfile } from '../kernel/process/pidfile.js';
import { packIpc } from '../kernel/serial/index.js';
import { isStringMap } from '../kernel/serial/is-string-map.js';
import { matchesTarget } from '../kernel/targeting/match.js';
import { clusterMinionOptions } from '../plugins/cluster/options.js';
import { jobProcessOptions } from '../plugins/job-processes/options.js';
// declares the built-in returners' `postgres:`/`redis:` blocks before the config is read
import '../returners/option-blocks.js';
import { processMatchers } from '../plugins/matchers/index.js';
import type { BeaconManager } from './beacons-manage.js';
import { applyEnvironSetenv } from './environ-setenv.js';
import type { JobOutcome } from './execute-job.js';
import { JobExecutor, jobProcessesMax } from './executor.js';
import { firstAlive, watchMasters } from './failover.js';
import type { GrainsView } from './grains-view.js';
import { hostGrainsEnv } from './host-grains.js';
import { HotMasters, type PublishSource } from './hot-masters.js';
import { JidQueue } from './jid-queue.js';
import { minionGrainsView, runEnvWith } from './job-env.js';
import type { JobData } from './job-protocol.js';
import { jobReturnerNames, minionReturnerLoader, returnJobToReturners } from './job-returners.js';
import { type LocalBus, startLocalBus } from './local-bus.js';
import { primaryMaster } from './master-address.js';
import { MasterConnection } from './master-connection.js';
import { clearMasterLink, type MasterLink, setMasterLink } from './master-link.js';
import { MasterSwitch } from './master-switch.js';
import { loadMinionMatchers } from './matchers.js';
import {
  mineIntervalOptions,
  mineScheduleEntry,
  runMineOnce,
  scheduleMine,
  skippedMineRun,
} from './mine-interval.js';
import { createMinionKernel } from './minion-kernel.js';
import { buildReturnLoad } from './return-load.js';
import { type MinionScheduler, startMinionScheduler } from './scheduler.js';
import { startupJob } from './startup-states.js';

export interface MinionHandle {
  readonly id: string;
  /**
   * Stops the minion. With `leaveJobs` (the daemon's SIGTERM: a restart or an upgrade), jobs
   * still running are left to their job processes, which return them and exit; without it they
   * are ended.
   */
  stop(opts?: { leaveJobs?: boolean }): Promise<void>;
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

interface MinionContext {
  readonly config: ResolvedMinionConfig;
  readonly id: string;
  readonly boot: { configDir: string; overrides: Record<string, unknown> };
  readonly log: Logger;
  readonly kernel: Kernel;
  readonly master: MasterSwitch;
}

/**
 * The minion's grains (core < custom grain modules < grains file < config): reported to the
 * master with `_pillar`, used for targeting, shared with in-process jobs, and reported again when
 * a job changes them (Salt's refresh_grains). Holds the pillar the master answers with.
 */
class MinionData {
  view: GrainsView;
  /** The grains the master was last told of. */
  grains: Record<string, unknown>;
  pillar: Record<string, unknown> = {};
  /** The grains recomputation a module refresh started (saltutil.refresh_grains): a pillar refresh waits for it. */
  grainsRecomputed: Promise<void> = Promise.resolve();
  /** The pillar packed for job processes, once per version. */
  packedPillar: Uint8Array | undefined;
  readonly #m: MinionContext;

  constructor(m: MinionContext, view: GrainsView) {
    this.#m = m;
    this.view = view;
    this.grains = view.current();
    m.kernel.hooks.grainsLoaded.call(this.grains);
  }

  /** Reports the grains and fetches the pillar (Salt's `_pillar`). */
  async refreshPillar(): Promise<void> {
    const pillar = await this.#m.master.pillar(this.grains);
    this.pillar = isStringMap(pillar) ? pillar : {};
    this.packedPillar = packIpc(this.pillar);
    // the number of keys only: pillar values never reach a log line
    this.#m.log.debug({ keys: Object.keys(this.pillar).length }, 'pillar received');
  }

  /** A fresh compile for `ask` (pillar.items): answered, not kept. */
  async compilePillar(ask: PillarAsk): Promise<Record<string, unknown>> {
    const pillar = await this.#m.master.pillar(this.grains, ask);
    return isStringMap(pillar) ? pillar : {};
  }

  /** After a job or a sync: if the grains changed (grains.setval, a new grains file), tell the master. */
  async refreshIfChanged(): Promise<void> {
    const now = this.view.current();
    if (now === this.grains) return;
    this.grains = now;
    this.#m.kernel.hooks.grainsLoaded.call(now);
    try {
      await this.refreshPillar();
      this.#m.log.info('grains changed: reported to the master');
    } catch (err) {
      this.#m.log.warn({ err: (err as Error).message }, 'changed grains not reported');
    }
  }
}

type ManageSchedule = (call: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>>;

/** The job executor: job processes (or this process, for `inline` functions and without multiprocessing). */
function jobExecutor(m: MinionContext, data: MinionData, manageSchedule: ManageSchedule): JobExecutor {
  const { config, id, boot, log } = m;
  const childBoot = bootEnv({
    kind: 'minion',
    configDir: boot.configDir,
    overrides: { ...boot.overrides, id },
    resolved: resolvedForChildren(config),
  });
  return new JobExecutor({
    multiprocessing: config.multiprocessing,
    // the grains of this process's last refresh, as Salt's forked jobs inherit them
    env: () => ({ ...childBoot, ...(data.view.host && hostGrainsEnv(data.view.host)) }),
    cachedir: config.cachedir,
    log,
    runEnv: () => runEnvWith(config, id, log, data.view, () => data.pillar),
    pillar: () => data.packedPillar,
    refreshPillar: () => refreshPillarNow(m, data),
    manageSchedule,
    compilePillar: (ask) => data.compilePillar(ask),
    maxJobs: config.process_count_max,
    maxProcesses: jobProcessesMax(config.job_processes_max),
    idleRetireMs: jobProcessOptions.read(config).job_process_idle_timeout * 1000,
    masterRequest: (load, opts) => m.master.send(load, opts),
    inline: (job) => config.inline_functions && jobReturnerNames(job, config).length === 0,
    inlineModules: config.inline_modules,
    // synced grain modules: recompute this process's grains and report them; synced matchers
    onRecycle: () => {
      void loadMinionMatchers(config, log);
      data.grainsRecomputed = minionGrainsView(config, id, log)
        .then((view) => {
          data.view = view;
          return data.refreshIfChanged();
        })
        .catch((err) => log.warn({ err: (err as Error).message }, 'grains not recomputed'));
    },
  });
}

/** What the minion does with each publish: open it, match it, run its job once, return it. */
interface PublishIntake {
  onPublish(frame: Buffer, from?: PublishSource): Promise<void>;
  /** Waits for the returns being sent now. */
  drain(): Promise<void>;
  /** Writes the jids seen to the queue's file and closes it. */
  close(): void;
}

function publishIntake(m: MinionContext, data: MinionData, executor: JobExecutor): PublishIntake {
  const { config, id, log, kernel, master } = m;
  // kept on disk: a master replays recent publishes to a minion restarted with it (jid-queue.ts)
  const jids = new JidQueue(config.minion_jid_queue_hwm, {
    path: join(config.cachedir, 'jid_queue'),
    onError: (err) => log.warn({ err }, 'the jid queue stays in memory: its file cannot be used'),
  });
  const returners = minionReturnerLoader(config, log);
  const hooks = kernel.hooks;

  const sending = new Set<Promise<void>>();
  function sendReturn(job: JobData, outcome: JobOutcome, to: PublishSource): Promise<void> {
    const p = sendReturnNow(job, outcome, to).finally(() => sending.delete(p));
    sending.add(p);
    return p;
  }

  async function sendReturnNow(job: JobData, outcome: JobOutcome, to: PublishSource): Promise<void> {
    const load = buildReturnLoad(id, job, outcome);
    const timeoutMs = randomBetween(config.return_retry_timer, config.return_retry_timer_max) * 1000;
    try {
      await to.send(load, { timeoutMs });
    } catch (err) {
      if ((err as { code?: string }).code === 'SALT_ERR_REQUEST_TOO_LARGE') {
        await sendRefusedReturn(job, err as Error, timeoutMs, to);
        return;
      }
      log.error(
        { jid: job.jid, err: (err as Error).message },
        'the return could not be delivered to the master',
      );
    }
  }

  /**
   * The master refused the return as over its `max_request_size`: a failed return saying so goes
   * in its place (without the job's arguments, which may be what made it large), so that the
   * user sees why rather than a minion that did not return.
   */
  async function sendRefusedReturn(
    job: JobData,
    err: Error,
    timeoutMs: number,
    to: PublishSource,
  ): Promise<void> {
    log.error({ jid: job.jid, err: err.message }, 'the return is too large for the master');
    const failed = { return: `ERROR: ${err.message}`, retcode: 1, success: false };
    try {
      await to.send(buildReturnLoad(id, { ...job, arg: [] }, failed), { timeoutMs });
    } catch (again) {
      log.error(
        { jid: job.jid, err: (again as Error).message },
        'the return could not be delivered to the master',
      );
    }
  }

  /** The job as the `beforeJob` taps leave it, or the error that refused it. */
  async function prepared(job: JobData): Promise<JobData | JobOutcome> {
    if (hooks.beforeJob.taps.length === 0) return job;
    try {
      return await hooks.beforeJob.promise(job);
    } catch (err) {
      log.warn({ jid: job.jid, err: (err as Error).message }, 'job refused by a plugin');
      return { return: `ERROR: ${(err as Error).message}`, retcode: 1, success: false };
    }
  }

  /** `from`: the master the publish came from (a hot multi-master's other one), its return goes there. */
  const onPublish = async (frame: Buffer, from: PublishSource = master): Promise<void> => {
    const load = await from.openPublish(frame);
    if (!load) return;
    const jid = String(load.jid);
    const matchData = {
      grains: data.grains,
      pillar: data.pillar,
      delimiter: load.delimiter,
      matchers: processMatchers(),
    };
    if (!matchesTarget(id, load.tgt, load.tgt_type, matchData)) {
      log.debug({ jid, tgt: load.tgt, tgt_type: load.tgt_type }, 'publish not for this minion');
      return;
    }
    if (!jids.add(jid)) {
      log.debug({ jid }, 'duplicate jid ignored');
      return;
    }
    const published = { ...load, jid, arg: Array.isArray(load.arg) ? load.arg : [] } as JobData;
    const ready = await prepared(published);
    const job = 'jid' in ready ? (ready as JobData) : published;
    log.info({ jid, fun: job.fun }, 'executing job');
    const outcome = 'jid' in ready ? await executor.run(job) : (ready as JobOutcome);
    await sendReturn(job, outcome, from);
    if (hooks.jobReturned.taps.length > 0) await hooks.jobReturned.promise(job, outcome);
    // an inline function is pure and touches no disk: it cannot have changed the grains file, whose
    // stat after every job was ~4 % of a minion's CPU per test.ping
    if (!executor.ranInline(outcome)) await data.refreshIfChanged();
    // Job processes call the job's returners themselves; in-process jobs have theirs called here.
    if (!config.multiprocessing) await returnJobToReturners(returners, config, id, job, outcome, log);
  };
  return {
    onPublish,
    async drain() {
      // a result that just came is on its way to sendReturn
      await new Promise((r) => setImmediate(r));
      await Promise.allSettled([...sending]);
    },
    close() {
      jids.close();
    },
  };
}

/** Subscribes to the master's publisher; the presence topic announces this minion's connection. */
function subscribe(
  m: MinionContext,
  masterHost: string,
  publishPort: number,
  onPublish: (frame: Buffer) => Promise<void>,
  lost?: () => void,
): ZmtpSubscriber {
  const { config, id, log } = m;
  const recon = config.recon_default + (config.recon_randomize ? config.recon_max : 0);
  const sub = new ZmtpSubscriber({
    ...parseTcpAddress(tcpAddress(masterHost, publishPort)),
    reconnectMs: Math.round(randomBetween(config.recon_default, recon)),
    reconnectMaxMs: config.recon_max,
    onMessage: ([frame]) => {
      if (frame) void onPublish(frame).catch((err) => log.error({ err }, 'publish handling failed'));
    },
    onDisconnect: (err) => {
      log.debug({ err: err.message }, 'publish connection lost; reconnecting');
      lost?.();
    },
  });
  sub.subscribe('');
  // announces this minion's connection to the master's publisher (kernel/bus/presence.ts)
  sub.subscribe(presenceTopic(id));
  sub.connect();
  return sub;
}

/**
 * saltutil.refresh_pillar: the minion asks the master for its pillar again, then fires
 * `minion_pillar_refresh_complete` (`{complete: true}`; on the master bus, as tsalt minions have
 * no local bus). Rejects when the master does not answer.
 */
async function refreshPillarNow(m: MinionContext, data: MinionData): Promise<void> {
  // after a module refresh (refresh_grains, sync_grains), the pillar is compiled for the new grains
  await data.grainsRecomputed;
  await data.refreshPillar();
  try {
    await m.master.send({
      cmd: '_minion_event',
      id: m.id,
      pretag: null,
      tag: 'minion_pillar_refresh_complete',
      data: { complete: true },
    });
  } catch (err) {
    m.log.warn({ err: (err as Error).message }, 'pillar refresh event not delivered');
  }
}

/** As a Salt minion does at start: report the grains, fetch the pillar, fire the start events to `to()`. */
async function reportStart(
  m: MinionContext,
  data: MinionData,
  to: () => readonly StartTarget[],
): Promise<void> {
  try {
    await data.refreshPillar();
  } catch (err) {
    m.log.warn({ err: (err as Error).message }, 'pillar not received');
  }
  await fireStart(m, to());
}

type StartTarget = Pick<MasterConnection, 'send'>;

/** The start events (`minion_start` too with the legacy ones), to each master of `to` (hot multi-master: each, as Salt's). */
async function fireStart(m: MinionContext, to: readonly StartTarget[]): Promise<void> {
  const { config, id, log } = m;
  const startData = `Minion ${id} started at ${asctime(new Date())}`;
  const event = (tag: string) => ({ cmd: '_minion_event', pretag: null, data: startData, tag });
  await Promise.all(
    to.map(async (master) => {
      try {
        if (config.enable_legacy_startup_events) await master.send(event('minion_start'));
        await master.send(event(`salt/minion/${id}/start`));
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'start event not delivered');
      }
    }),
  );
}

/** `startup_states`: the state job it names, run once the pillar is in, its return sent to the master. */
async function runStartupStates(m: MinionContext, executor: JobExecutor): Promise<void> {
  const job = startupJob(m.config as unknown as Readonly<Record<string, unknown>>);
  if (!job) return;
  m.log.info({ fun: job.fun }, 'running startup_states');
  try {
    const outcome = await executor.run(job);
    await m.master.send(buildReturnLoad(m.id, job, outcome));
  } catch (err) {
    m.log.error({ err: (err as Error).message }, 'startup_states failed');
  }
}

/** The minion's scheduler (minion/scheduler.ts): its scheduled jobs run through the executor. */
function schedulerOf(m: MinionContext, data: MinionData, executor: JobExecutor): Promise<MinionScheduler> {
  const { config, id, log } = m;
  const returners = minionReturnerLoader(config, log);
  return startMinionScheduler({
    id,
    config,
    async execute(job) {
      // the mine's job with nothing to do starts no job process (minion/mine-interval.ts)
      const skipped = skippedMineRun(job, config, data.pillar);
      if (skipped) return skipped;
      const outcome = await executor.run(job);
      // job processes call the job's returners themselves; in-process jobs have theirs called here
      if (!config.multiprocessing) await returnJobToReturners(returners, config, id, job, outcome, log);
      return outcome;
    },
    send: (load) => m.master.send(load),
    pillar: () => data.pillar,
    grains: () => data.grains,
    log,
  });
}

/** Minion beacons: they fire `salt/beacon/...` to the master; `beacons.add` & co. change them. */
async function beaconsOf(m: MinionContext, data: MinionData, executor: JobExecutor): Promise<BeaconManager> {
  const { config, id, log } = m;
  const { startBeaconManager } = await import('./beacons-manage.js');
  const { beaconCall } = await import('./beacon-call.js');
  return startBeaconManager({
    id,
    beacons: config.beacons,
    opts: config as unknown as Readonly<Record<string, unknown>>,
    dirs: [join(config.extension_modules, 'beacons'), ...config.beacons_dirs],
    packages: [...config.extensions],
    loopInterval: config.loop_interval,
    grains: () => data.view.current(),
    send: (load) => m.master.send(load),
    call: beaconCall(id, (job) => executor.run(job)),
    log,
  });
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
  // a bad mine option stops the start with SALT_ERR_CONFIG_INVALID, naming it
  mineIntervalOptions(config);
  await writePidfile(config.pidfile);
  const kernel = await createMinionKernel(config, log);
  const keys = await loadOrCreateKeyPair(config.pki_dir, 'minion', 2048);
  if (keys.created) log.info({ pki_dir: config.pki_dir }, 'generated the minion key pair');
  // master_type: failover: the first master of the list that answers (minion/failover.ts)
  const failover = config.master_type === 'failover' && typeof config.master !== 'string';
  // hot multi-master: a list without failover, every master at once (minion/hot-masters.ts)
  const hot = !failover && typeof config.master !== 'string' && config.master.length > 1;
  const masters = failover || hot ? [...config.master] : [primaryMaster(config.master)];
  const starting = new AbortController();
  let index =
    failover || hot
      ? await firstAlive(masters, config.master_port, 0, { signal: starting.signal, log, probeMs: 5000 })
      : 0;
  const connection = (i: number): MasterConnection =>
    new MasterConnection(config, id, keys, tcpAddress(masters[i]!, config.master_port), log);
  const signedIn = async (i: number): Promise<MasterConnection> => {
    const conn = connection(i);
    await conn.signIn();
    return conn;
  };
  const firstConn = await signedIn(index);
  const master = new MasterSwitch(firstConn);
  let stopped = false;
  const m: MinionContext = { config, id, boot, log, kernel, master };

  const data = new MinionData(m, await minionGrainsView(config, id, log));
  await loadMinionMatchers(config, log);
  let scheduler: MinionScheduler | undefined;
  // the beacons start with the minion when configured, else at the first `beacons.add` & co.:
  // an idle minion without beacons does not hold their code
  let beacons: Promise<BeaconManager> | undefined;
  const beaconManager = () => {
    beacons ??= beaconsOf(m, data, executor);
    return beacons;
  };
  // one job-process path serves both Salt's manage_schedule and (target 'beacons') manage_beacons
  const manageSchedule: ManageSchedule = (call) =>
    call.target === 'beacons'
      ? beaconManager().then((b) => b.manage(call))
      : scheduler
        ? scheduler.manage(call)
        : Promise.reject(new Error('the scheduler is not started'));
  const executor = jobExecutor(m, data, manageSchedule);
  // functions running in this process (multiprocessing off) reach the master directly
  const link: MasterLink = {
    inProcess: !config.multiprocessing,
    request: (load, opts) => master.send(load, opts?.timeoutMs !== undefined ? { ...opts, slow: true } : {}),
    recycle: () => executor.recycle(),
    refreshPillar: () => refreshPillarNow(m, data),
    manageSchedule,
    compilePillar: (ask) => data.compilePillar(ask),
  };
  setMasterLink(id, link);
  const intake = publishIntake(m, data, executor);
  // hot multi-master: HotMasters subscribes to each master, the first too
  let sub = hot ? undefined : subscribe(m, masters[index]!, master.creds.publishPort, intake.onPublish);
  let announced = false;
  const others = hot
    ? new HotMasters({
        masters,
        primary: index,
        first: firstConn,
        connect: connection,
        subscribe: (host, port, from, lost) =>
          subscribe(m, host, port, (frame) => intake.onPublish(frame, from), lost),
        port: config.master_port,
        checkS: config.master_alive_interval || 5,
        checkUp: config.master_alive_interval > 0,
        // a master joined after the start report gets the start events too, as in Salt
        joined: (conn) => void (announced && fireStart(m, [conn])),
        log,
      })
    : undefined;
  if (others) master.route(others);
  others?.start();
  const own = clusterMinionOptions.read(config);
  const watch =
    failover && masters.length > 1 && config.master_alive_interval > 0
      ? watchMasters({
          masters,
          port: config.master_port,
          aliveIntervalS: config.master_alive_interval,
          failback: own.master_failback,
          failbackIntervalS: own.master_failback_interval,
          log,
          current: () => index,
          switchTo: async (i, why) => {
            const next = await signedIn(i);
            if (stopped) return next.close();
            master.replace(next);
            sub?.close();
            index = i;
            sub = subscribe(m, masters[i]!, next.creds.publishPort, intake.onPublish);
            log.warn({ master: masters[i], why }, `master ${why}: now connected to ${masters[i]}`);
          },
        })
      : undefined;
  const startTargets = (): readonly StartTarget[] => {
    announced = true;
    return others ? others.all() : [master];
  };
  void reportStart(m, data, startTargets).then(async () => {
    // the mine's job goes in once the pillar is in (its mine_functions may come from there)
    if (!stopped && scheduler) {
      const once = {
        config,
        id,
        run: (job: JobData) => executor.run(job),
        send: (load: Record<string, unknown>) => master.send(load),
        pillar: () => data.pillar,
        newJid: () => genJid(config),
      };
      await scheduleMine(scheduler.scheduler, config, () => runMineOnce(once)).catch((err: Error) =>
        log.warn({ err: err.message }, 'the mine update could not be scheduled'),
      );
      if (mineScheduleEntry(config)) log.info('Added mine.update to scheduler');
    }
    return runStartupStates(m, executor);
  });
  scheduler = await schedulerOf(m, data, executor);
  // a salt-call on this host reaches the scheduler through the minion's own bus, as in Salt
  const localBus: LocalBus | undefined = await startLocalBus({
    sockDir: config.sock_dir,
    id,
    log,
    manage: manageSchedule,
    // environ.setenv update_minion=True: this process's environment, and fresh job processes
    // that inherit it (Salt's forked jobs inherit the minion's)
    setenv: (ev) => {
      if (!applyEnvironSetenv(ev)) return;
      executor.retireProcesses();
      log.info({ keys: Object.keys(ev.environ as object) }, 'environment updated by environ_setenv');
    },
    // Salt's `handle_event`: a `_salt_error` event goes on to the master as a `_minion_event`
    forward: (tag, ev) => {
      log.debug({ tag }, 'Forwarding salt error event');
      master
        .send({ id, cmd: '_minion_event', pretag: null, data: ev, tag })
        .catch((err: Error) => log.info({ tag, err: err.message }, 'fire_master failed'));
    },
  });
  if (Object.keys(config.beacons).length > 0) await beaconManager();
  // minion-side engines: one child each, restarted with backoff (minion/engines.ts)
  // imported only when configured, as the beacons are
  const engines =
    config.engines.length === 0
      ? undefined
      : (await import('./engines.js')).startEngines({
          id,
          engines: config.engines,
          config,
          boot,
          send: (load) => master.send(load),
          log,
        });
  log.info({ id, master: master.masterUri }, 'salt-minion started');

  return {
    id,
    async stop(opts = {}) {
      if (stopped) return;
      stopped = true;
      starting.abort();
      watch?.stop();
      scheduler?.stop();
      await localBus?.close();
      (await beacons?.catch(() => undefined))?.stop();
      await engines?.stop();
      sub?.close();
      if (opts.leaveJobs) {
        // the returns of jobs that ended before the hand-over go out first, then the channel closes
        await executor.detach();
        await intake.drain();
      }
      others?.close();
      master.close();
      intake.close();
      clearMasterLink(id, link);
      await executor.close();
      await kernel.shutdown();
      await removePidfile(config.pidfile);
      log.info('salt-minion stopped');
    },
  };
}
