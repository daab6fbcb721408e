/**
 * Beacons (Salt's `salt/beacons`): small checks the minion runs on an interval in its main
 * loop; each returns the events to fire (`salt/beacon/<id>/<name>/[tag]`) to the master.
 */
import type { Grains, UnitLogger } from '../loader/define.js';

/** What a beacon function receives besides its config. */
export interface BeaconContext {
  readonly opts: Readonly<Record<string, unknown>>;
  /** The minion's grains at this run. */
  readonly grains: Grains;
  readonly log: UnitLogger;
  /** Kept between runs of this beacon (Salt's module-level `LAST_STATUS` and the like). */
  readonly state: Map<string, unknown>;
  /**
   * Runs the minion's execution function `fun` (Salt's `__salt__[fun](*args, **kwargs)`) as a
   * local job: resolves its return, rejects with its error message when it fails.
   */
  call(fun: string, args?: readonly unknown[], kwargs?: Readonly<Record<string, unknown>>): Promise<unknown>;
}

/** One event a beacon emits: its data; `tag` (if given) is appended to `salt/beacon/<id>/<name>/`. */
export type BeaconEvent = Record<string, unknown> & { tag?: string };

export interface BeaconDef {
  name: string;
  doc?: string;
  /**
   * Checks the beacon's config (Salt's list of one-key maps, merged into one map) before the
   * first run: `true`, or the reason it is wrong.
   */
  validate?(config: Readonly<Record<string, unknown>>): true | string;
  /** Whether it can run on this host (Salt's `__virtual__`): `true`, or why not; asked at load. */
  available?(): true | string;
  /** Ends what runs left going in `state` (a watcher): at stop, or a pause for a state run. */
  close?(state: Map<string, unknown>): void;
  /** One run: the events to fire now (usually none). */
  beacon(
    ctx: BeaconContext,
    config: Readonly<Record<string, unknown>>,
  ): BeaconEvent[] | Promise<BeaconEvent[]>;
}

/**
 * Types a beacon. The loader reads the default export of a file in
 * `<extension_modules>/beacons`, a `beacons_dirs` folder or a package's `tsalt.beacons` folder.
 */
export function defineBeacon(def: BeaconDef): BeaconDef {
  return def;
}

export function isBeaconDef(value: unknown): value is BeaconDef {
  const v = value as { name?: unknown; beacon?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.name === 'string' &&
    v.name !== '' &&
    typeof v.beacon === 'function'
  );
}

/** Salt's `list_to_dict`: a beacon config given as a list of one-key maps becomes one map. */
export function beaconConfigMap(config: unknown): Record<string, unknown> {
  if (Array.isArray(config)) {
    const out: Record<string, unknown> = {};
    for (const item of config)
      if (item && typeof item === 'object' && !Array.isArray(item)) Object.assign(out, item);
    return out;
  }
  return config && typeof config === 'object' ? { ...(config as Record<string, unknown>) } : {};
}
