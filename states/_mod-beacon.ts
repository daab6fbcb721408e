/**
 * The `mod_beacon` state functions (Salt's `mod_beacon` in `salt/states/file.py`, `pkg.py` and
 * `service.py`): what the state runtime runs for a chunk with `beacon:` (see
 * plugins/states/runtime/beacons.ts). For a supported function and a true `beacon`, it makes the
 * module's beacon (`inotify`, `pkg`, `service`) present as `beacon_<module>_<name>` through
 * `beacon.present`, its settings from `beacon_data` and Salt's defaults.
 */
import { pyStr, pyTruthy } from '../kernel/util.js';
import { defineState, type StateFunctionSpec, type StateReturn } from '../plugins/states/index.js';

type Kwargs = Readonly<Record<string, unknown>>;

/** One module's `mod_beacon`: its beacon module, the functions it supports and their settings. */
export interface ModBeaconSpec {
  /** The state module (`file`, `pkg`, `service`), for the unsupported-function comment. */
  readonly module: string;
  /** The beacon module the beacon runs (`beacon_module`). */
  readonly beacon: string;
  /** The state functions (`sfun`) that can have a beacon. */
  readonly supported: readonly string[];
  /** What the unsupported-function comment calls it ("beacon" or, in pkg's, "mod_beacon"). */
  readonly callsIt: string;
  /** The beacon's settings (without `beacon_module`) for the state's name and keywords. */
  settings(name: string, sfun: string, data: BeaconData, kwargs: Kwargs): Record<string, unknown>;
}

/** Python's `dict.get` over the state's `beacon_data` (anything but a mapping reads as empty). */
export type BeaconData = (key: string, fallback: unknown) => unknown;

function beaconData(value: unknown): BeaconData {
  const map = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Kwargs) : {};
  return (key, fallback) => (key in map ? map[key] : fallback);
}

/** The `mod_beacon` state function of one module. */
export function modBeacon(spec: ModBeaconSpec): StateFunctionSpec {
  return defineState({
    // Salt's mod_beacon(name, **kwargs): `sfun`, `beacon` and `beacon_data` arrive among the keywords
    args: (z) => z.object({ name: z.string() }),
    varkw: true,
    doc: `What the beacon state argument runs: a ${spec.beacon} beacon for the state's ${spec.supported.join(' or ')}.`,
    run: async (ctx, { name }, extra): Promise<StateReturn> => {
      const { sfun, ...kwargs } = extra.kwargs;
      if (typeof sfun !== 'string' || !spec.supported.includes(sfun)) {
        const fun = `${spec.module}.${pyStr(sfun ?? 'None')}`;
        return {
          name,
          changes: {},
          comment: `${fun} does not work with the ${spec.callsIt} state function`,
          result: false,
        };
      }
      if (!pyTruthy(kwargs.beacon)) return { name, changes: {}, comment: 'Not adding beacon.', result: true };
      const settings = spec.settings(name, sfun, beaconData(kwargs.beacon_data), kwargs);
      return ctx.state('beacon.present', {
        name: `beacon_${spec.beacon}_${name}`,
        ...settings,
        beacon_module: spec.beacon,
      });
    },
  });
}
