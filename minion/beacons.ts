/**
 * The minion's beacons (Salt's `Beacon.process` in the minion loop): each configured beacon
 * runs every `interval` seconds (its own option, else `loop_interval`), and what it emits goes
 * to the master in one `_minion_event` per run as `salt/beacon/<id>/<name>/[tag]`. A beacon
 * that is missing, refuses its config or throws is logged (a throw also fires Salt's error
 * event) and never stops the others or the minion. `run_once` disables a beacon after its first
 * run; `disable_during_state_run` pauses it (closing it, if it has a `close`) while a state runs.
 */
import {
  type BeaconContext,
  type BeaconDef,
  beaconConfigMap,
  isBeaconDef,
} from '../kernel/beacons/define.js';
import type { Grains, UnitLogger } from '../kernel/loader/define.js';
import { createNamedUnitFinder } from '../kernel/loader/named-units.js';
import { runningJobs } from '../modules/_proc-jobs.js';
import { BUILTIN_DIRS } from '../plugins/builtin-dirs.js';

export interface BeaconsOptions {
  id: string;
  /** The minion config's `beacons` mapping: name → Salt's list of one-key maps (or a map). */
  beacons: Readonly<Record<string, unknown>>;
  opts: Readonly<Record<string, unknown>>;
  /** `<extension_modules>/beacons`, then `beacons_dirs`. */
  dirs: readonly string[];
  packages: readonly string[];
  loopInterval: number;
  grains(): Grains;
  /** Sends one `_minion_event` load to the master. */
  send(load: Record<string, unknown>): Promise<unknown>;
  /** Runs an execution function for a beacon (minion/beacon-call.ts). */
  call: BeaconContext['call'];
  /** Told when a `run_once` beacon has run and is disabled. */
  disabled?(name: string): void;
  log: UnitLogger;
}

export interface RunningBeacons {
  stop(): void;
}

interface Scheduled {
  name: string;
  def: BeaconDef;
  config: Record<string, unknown>;
  state: Map<string, unknown>;
  runOnce: boolean;
  pauseForStates: boolean;
  timer?: NodeJS.Timeout;
  /** Stopped: by `stop`, or after its one run (`run_once`). */
  done?: boolean;
}

function readBeacon(namespace: unknown): BeaconDef | string {
  const def = (namespace as { default?: unknown } | null)?.default;
  if (!isBeaconDef(def)) return 'the default export is not a defineBeacon({ name, beacon }) value';
  // a beacon whose needs are missing here (Salt's __virtual__ refusing) says why
  const available = def.available ? def.available() : true;
  return available === true ? def : available;
}

/** Finds beacon modules by name in the minion's beacon folders and extension packages. */
export function beaconFinder(o: Pick<BeaconsOptions, 'dirs' | 'packages' | 'log'>) {
  return createNamedUnitFinder<BeaconDef>({
    kind: 'beacons',
    dirs: [...o.dirs, BUILTIN_DIRS.beacons],
    packages: o.packages,
    read: readBeacon,
    nameOf: (def) => def.name,
    log: o.log,
  });
}

/** Loads and starts every configured beacon; resolves once they are scheduled. */
export async function startBeacons(o: BeaconsOptions): Promise<RunningBeacons> {
  const jobs: Scheduled[] = [];
  const finder = beaconFinder(o);
  // a top-level `enabled: False` (Salt's beacons.disable) stops them all
  if (o.beacons.enabled === false) return { stop() {} };
  for (const [name, raw] of Object.entries(o.beacons)) {
    if (name === 'enabled') continue;
    const config = beaconConfigMap(raw);
    if (config.enabled === false) continue;
    const module = typeof config.beacon_module === 'string' ? config.beacon_module : name;
    let def: BeaconDef | undefined;
    try {
      def = (await finder.find(module))?.def;
    } catch (err) {
      o.log.warn(
        { beacon: name, err: (err as Error).message },
        `Unable to process beacon ${name}: ${(err as Error).message}`,
      );
      continue;
    }
    if (!def) {
      o.log.warn({ beacon: name }, `Unable to process beacon ${name}: no beacon module ${module}`);
      continue;
    }
    const interval = Number(config.interval ?? o.loopInterval);
    const job: Scheduled = {
      name,
      def,
      config,
      state: new Map(),
      runOnce: config.run_once === true,
      pauseForStates: config.disable_during_state_run === true,
    };
    for (const k of ['interval', 'beacon_module', 'enabled', 'disable_during_state_run', 'run_once'])
      delete config[k];
    const valid = def.validate ? def.validate(config) : true;
    if (valid !== true) {
      o.log.warn({ beacon: name }, `Beacon ${name} configuration invalid, not adding. ${valid}`);
      continue;
    }
    let busy = false;
    const tick = () => {
      if (busy || job.done) return;
      busy = true;
      runOnce(job, o)
        .catch((err) =>
          o.log.warn({ beacon: name, err: (err as Error).message }, 'beacon events not delivered'),
        )
        .finally(() => {
          busy = false;
        });
    };
    job.timer = setInterval(tick, Math.max(0.05, Number.isFinite(interval) ? interval : 1) * 1000);
    job.timer.unref();
    jobs.push(job);
    tick();
  }
  return {
    stop() {
      for (const job of jobs) finish(job, o);
    },
  };
}

/** Stops a beacon for good: its timer, and what it keeps running (its `close`). */
function finish(job: Scheduled, o: BeaconsOptions): void {
  job.done = true;
  clearInterval(job.timer);
  closeBeacon(job, o);
}

function closeBeacon(job: Scheduled, o: BeaconsOptions): void {
  try {
    job.def.close?.(job.state);
  } catch (err) {
    o.log.warn({ beacon: job.name, err: (err as Error).message }, `Closing beacon ${job.name} failed`);
  }
}

/** Salt's `disable_during_state_run`: whether a `state.*` job runs on this minion now. */
function stateRunning(o: BeaconsOptions): boolean {
  return runningJobs(o.opts).some((j) => /^state\./.test(String(j.fun)));
}

async function runOnce(job: Scheduled, o: BeaconsOptions): Promise<void> {
  if (job.pauseForStates && stateRunning(o)) {
    // as Salt: a beacon with a close is closed (its next run starts it again), else skipped
    if (job.def.close) {
      o.log.info({ beacon: job.name }, `Closing beacon ${job.name}. State run in progress.`);
      closeBeacon(job, o);
    } else o.log.info({ beacon: job.name }, `Skipping beacon ${job.name}. State run in progress.`);
    return;
  }
  const base = `salt/beacon/${o.id}/${job.name}/`;
  const events: Array<{ tag: string; data: Record<string, unknown>; beacon_name: string; error?: string }> =
    [];
  try {
    const raw = await job.def.beacon(
      { opts: o.opts, grains: o.grains(), log: o.log, state: job.state, call: o.call },
      job.config,
    );
    for (const item of Array.isArray(raw) ? raw : []) {
      const data: Record<string, unknown> = { ...item };
      let tag = base;
      if (typeof data.tag === 'string') {
        tag += data.tag;
        delete data.tag;
      }
      if (!('id' in data)) data.id = o.id;
      events.push({ tag, data, beacon_name: job.name });
    }
  } catch (err) {
    const error = (err as Error).message ?? String(err);
    o.log.error({ beacon: job.name }, `Unable to start ${job.name} beacon, ${error}`);
    events.push({ tag: base, error, data: {}, beacon_name: job.name });
  }
  // Salt's `run_once`: after a run without error the beacon is disabled
  if (job.runOnce && !events.some((e) => e.error !== undefined)) {
    finish(job, o);
    o.disabled?.(job.name);
  }
  if (events.length === 0) return;
  await o.send({ cmd: '_minion_event', id: o.id, events, pretag: null });
}
