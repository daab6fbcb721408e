/**
 * Run-time management of the minion's beacons (Salt's `manage_beacons` event, served by
 * `salt/beacons/__init__.py`): add, modify, delete, enable and disable beacons in the running
 * minion, without a restart. Each call answers what Salt's `..._complete` event carries
 * (`complete`, `comment`, `beacons`), and the running beacons restart on the new mapping.
 * Copies keep Salt's value types (a whole float `1.0` stays one; structuredClone drops classes).
 */
import { beaconConfigMap } from '../kernel/beacons/define.js';
import { deepCopy } from '../modules/_traverse.js';
import { type BeaconsOptions, beaconFinder, type RunningBeacons, startBeacons } from './beacons.js';

export interface BeaconManager {
  /** Serves one `manage_beacons` call (`func` and its fields); answers Salt's complete-event data. */
  manage(call: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>>;
  stop(): void;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Salt's `_update_enabled`: sets `enabled` in a beacon's list of one-key maps (or its map). */
function withEnabled(raw: unknown, enabled: boolean): unknown {
  if (isMap(raw)) return { ...raw, enabled };
  const list = Array.isArray(raw) ? raw.filter((i) => !(isMap(i) && 'enabled' in i)) : [];
  return [...list, { enabled }];
}

/** Starts the configured beacons and answers run-time changes to them. */
export async function startBeaconManager(o: BeaconsOptions): Promise<BeaconManager> {
  let beacons: Record<string, unknown> = deepCopy({ ...o.beacons });
  // a `run_once` beacon that ran is disabled in the mapping, as Salt's disable_beacon does
  const disabled = (name: string) => {
    if (name in beacons) beacons[name] = withEnabled(beacons[name], false);
  };
  const start = () => startBeacons({ ...o, beacons, disabled });
  let running: RunningBeacons = await start();
  const finder = beaconFinder(o);
  const restart = async () => {
    running.stop();
    running = await start();
  };
  const changed = async (comment: string) => {
    await restart();
    return { complete: true, comment, beacons: deepCopy(beacons) };
  };
  const validate = async (name: string, data: unknown) => {
    const config = beaconConfigMap(data);
    const module = typeof config.beacon_module === 'string' ? config.beacon_module : name;
    const def = (await finder.find(module).catch(() => undefined))?.def;
    if (!def?.validate)
      return {
        complete: true,
        valid: true,
        vcomment: `Beacon ${module} does not have a validate function, skipping validation.`,
      };
    for (const k of ['interval', 'beacon_module', 'enabled', 'disable_during_state_run', 'run_once'])
      delete config[k];
    const valid = def.validate(config);
    return valid === true
      ? { complete: true, valid: true, vcomment: 'Valid beacon configuration' }
      : { complete: true, valid: false, vcomment: String(valid) };
  };
  return {
    async manage(call) {
      const name = typeof call.name === 'string' ? call.name : '';
      switch (call.func) {
        case 'list':
          return { complete: true, beacons: deepCopy(beacons) };
        case 'validate_beacon':
          return validate(name, call.beacon_data);
        case 'add': {
          const had = name in beacons;
          beacons[name] = deepCopy(call.beacon_data);
          return changed(
            had ? `Updating settings for beacon item: ${name}` : `Added new beacon item: ${name}`,
          );
        }
        case 'modify':
          beacons[name] = deepCopy(call.beacon_data);
          return changed(`Updating settings for beacon item: ${name}`);
        case 'delete': {
          if (!(name in beacons))
            return { complete: true, comment: `Beacon item ${name} not found.`, beacons };
          delete beacons[name];
          return changed(`Deleting beacon item: ${name}`);
        }
        case 'enable':
          beacons.enabled = true;
          return changed('');
        case 'disable':
          beacons.enabled = false;
          return changed('');
        case 'enable_beacon':
          beacons[name] = withEnabled(beacons[name], true);
          return changed(`Enabling beacon item ${name}`);
        case 'disable_beacon':
          beacons[name] = withEnabled(beacons[name], false);
          return changed(`Disabling beacon item ${name}`);
        case 'reset':
          beacons = {};
          return changed('Beacons have been reset');
        default:
          throw new Error(`unknown manage_beacons function: ${String(call.func)}`);
      }
    },
    stop() {
      running.stop();
    },
  };
}
