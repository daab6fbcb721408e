/**
 * The minion's beacons (Salt's `Beacon.process` in the minion loop): each configured beacon
 * runs every `interval` seconds (its own option, else `loop_interval`), and what it emits goes
 * to the master in one `_minion_event` per run as `salt/beacon/<id>/<name>/[tag]`. A beacon
 * that is missing, refuses its config or throws is logged (a throw also fires Salt's error
 * event) and never stops the others or the minion.
 */
import {
  type BeaconContext,
  type BeaconDef,
  beaconConfigMap,
  isBeaconDef,
} from '../kernel/beacons/define.js';
import type { Grains, UnitLogger } from '../kernel/loader/define.js';
import { createNamedUnitFinder } from '../kernel/loader/named-units.js';
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
}

function readBeacon(namespace: unknown): BeaconDef | string {
  const def = (namespace as { default?: unknown } | null)?.default;
  if (isBeaconDef(def)) return def;
  // a beacon whose needs are missing here (Salt's __virtual__ refusing) exports why instead
  const unavailable = (def as { unavailable?: unknown } | null)?.unavailable;
  if (typeof unavailable === 'string') return unavailable;
  return 'the default export is not a defineBeacon({ name, beacon }) value';
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
  const timers: NodeJS.Timeout[] = [];
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
    for (const k of ['interval', 'beacon_module', 'enabled', 'disable_during_state_run', 'run_once'])
      delete config[k];
    const valid = def.validate ? def.validate(config) : true;
    if (valid !== true) {
      o.log.warn({ beacon: name }, `Beacon ${name} configuration invalid, not adding. ${valid}`);
      continue;
    }
    const job: Scheduled = { name, def, config, state: new Map() };
    let busy = false;
    const tick = () => {
      if (busy) return;
      busy = true;
      runOnce(job, o)
        .catch((err) =>
          o.log.warn({ beacon: name, err: (err as Error).message }, 'beacon events not delivered'),
        )
        .finally(() => {
          busy = false;
        });
    };
    const timer = setInterval(tick, Math.max(0.05, Number.isFinite(interval) ? interval : 1) * 1000);
    timer.unref();
    timers.push(timer);
    tick();
  }
  return {
    stop() {
      for (const t of timers) clearInterval(t);
    },
  };
}

async function runOnce(job: Scheduled, o: BeaconsOptions): Promise<void> {
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
  if (events.length === 0) return;
  await o.send({ cmd: '_minion_event', id: o.id, events, pretag: null });
}
