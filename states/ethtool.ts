/**
 * Salt's `ethtool` state module (`salt/states/ethtool.py`): `coalesce`, `ring`, `offload` and
 * `pause` make a network device's settings hold the given values, through the `ethtool`
 * execution module. Each compares the given keywords with the device's current values (only
 * keywords the device reports count), reports the differences as `key: value` lines and applies
 * them; a device that does not report the settings fails the state. As in Salt, what the setter
 * returns is not looked at, and `pause` compares `tx` with the device's RX value.
 */
import type { z as Zod } from 'zod';
import { pyStr, pyTruthy } from '../kernel/python/index.js';
import { pythonError } from '../modules/_py-exception.js';
import { pyEquals } from '../modules/_traverse.js';
import { which } from '../modules/_which.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

type Settings = Readonly<Record<string, unknown>>;

/** What one of the three struct-like states reads, changes and says. */
interface Kind {
  show: string;
  set: string;
  /** `coalescing settings`, `ring parameters`, `offload settings`. */
  what: string;
  changesKey: string;
  /** The wanted value of `key` as the state compares it (`max` for rings, on/off for offloads). */
  wanted(key: string, value: unknown, old: Settings): unknown;
}

const COALESCE: Kind = {
  show: 'ethtool.show_coalesce',
  set: 'ethtool.set_coalesce',
  what: 'coalescing settings',
  changesKey: 'ethtool_coalesce',
  wanted: (_key, value) => value,
};
const RING: Kind = {
  show: 'ethtool.show_ring',
  set: 'ethtool.set_ring',
  what: 'ring parameters',
  changesKey: 'ethtool_ring',
  wanted: (key, value, old) => {
    if (value !== 'max') return value;
    if (!(`${key}_max` in old)) throw pythonError('KeyError', `'${key}_max'`);
    return old[`${key}_max`];
  },
};
const OFFLOAD: Kind = {
  show: 'ethtool.show_offload',
  set: 'ethtool.set_offload',
  what: 'offload settings',
  changesKey: 'ethtool_offload',
  wanted: (_key, value) => (pyTruthy(value) ? 'on' : 'off'),
};

/** Salt's `coalesce`, `ring` and `offload`: one shape, three settings. */
async function apply(
  ctx: StateContext,
  kind: Kind,
  name: string,
  kwargs: Readonly<Record<string, unknown>>,
): Promise<StateReturn> {
  const ret: StateReturn = {
    name,
    changes: {},
    result: true,
    comment: `Network device ${name} ${kind.what} are up to date.`,
  };
  // a `test` keyword of the state wins over the run's test flag, as in Salt
  const test = 'test' in kwargs ? pyTruthy(kwargs.test) : ctx.test;
  const old = await ctx.call(kind.show, [name]);
  if (old === null || typeof old !== 'object' || Array.isArray(old)) {
    return { ...ret, result: false, comment: `Device ${name} ${kind.what} are not supported` };
  }
  const current = old as Settings;
  const changed: Record<string, unknown> = {};
  const diff: string[] = [];
  for (const [key, given] of Object.entries(kwargs)) {
    if (!(key in current)) continue;
    const value = kind.wanted(key, given, current);
    if (!pyEquals(value, current[key])) {
      changed[key] = value;
      diff.push(`${key}: ${pyStr(value)}`);
    }
  }
  if (!diff.length) return ret;
  if (test)
    return {
      ...ret,
      result: null,
      comment: `Device ${name} ${kind.what} are set to be updated:\n${diff.join('\n')}`,
    };
  await ctx.call(kind.set, [name], changed);
  return {
    ...ret,
    comment: `Device ${name} ${kind.what} updated.`,
    changes: { [kind.changesKey]: diff.join('\n') },
  };
}

/** Salt's `pause_map` (its `tx` maps to the RX column). */
const PAUSE_MAP: Readonly<Record<string, string>> = { autoneg: 'Autonegotiate', rx: 'RX', tx: 'RX' };

async function pauseState(
  ctx: StateContext,
  name: string,
  kwargs: Readonly<Record<string, unknown>>,
): Promise<StateReturn> {
  const ret: StateReturn = {
    name,
    changes: {},
    result: true,
    comment: `Network device ${name} pause parameters are up to date.`,
  };
  let old: Settings;
  try {
    old = (await ctx.call('ethtool.show_pause', [name])) as Settings;
  } catch (err) {
    if ((err as { code?: string }).code !== 'SALT_ERR_EXEC_COMMAND') throw err;
    return { ...ret, result: false, comment: `Device ${name} pause parameters are not supported` };
  }
  const changed: Record<string, unknown> = {};
  const diff: string[] = [];
  for (const [k, value] of Object.entries(kwargs)) {
    const key = k.toLowerCase();
    const column = PAUSE_MAP[key];
    if (column === undefined) continue;
    if (!(column in old)) throw pythonError('KeyError', `'${column}'`);
    if (pyEquals(value, old[column])) continue;
    changed[key] = value;
    diff.push(`${key}: ${value === true ? 'on' : value === false ? 'off' : pyStr(value)}`);
  }
  if (!diff.length) return ret;
  if (ctx.test)
    return {
      ...ret,
      result: null,
      comment: `Device ${name} pause parameters are set to be updated:\n${diff.join('\n')}`,
    };
  try {
    await ctx.call('ethtool.set_pause', [name], changed);
  } catch (err) {
    if ((err as { code?: string }).code !== 'SALT_ERR_EXEC_COMMAND') throw err;
    return { ...ret, result: false, comment: (err as Error).message };
  }
  return {
    ...ret,
    comment: `Device ${name} pause parameters updated.`,
    changes: { ethtool_pause: diff.join('\n') },
  };
}

const devName = (z: typeof Zod) => z.object({ name: z.unknown().transform((v) => pyStr(v)) });

export default defineStateModule({
  name: 'ethtool',
  doc: "Configuration of a network device's ethtool settings: coalescing, rings, offloads and pause.",
  virtual: () => which('ethtool') !== null || { ok: false, reason: 'ethtool module could not be loaded' },
  functions: {
    coalesce: defineState({
      args: devName,
      varkw: true,
      doc: 'Manage the coalescing settings of a network device (adaptive_rx, rx_usecs, rx_frames, tx_usecs, ...).',
      run: (ctx, a, extra) => apply(ctx, COALESCE, a.name, extra.kwargs),
    }),
    ring: defineState({
      args: devName,
      varkw: true,
      doc: "Manage the rx/tx ring parameters of a network device (rx, rx_mini, rx_jumbo, tx; 'max' for the device's maximum).",
      run: (ctx, a, extra) => apply(ctx, RING, a.name, extra.kwargs),
    }),
    offload: defineState({
      args: devName,
      varkw: true,
      doc: 'Manage the protocol offload settings of a network device (tcp_segmentation_offload, ...; True or False).',
      run: (ctx, a, extra) => apply(ctx, OFFLOAD, a.name, extra.kwargs),
    }),
    pause: defineState({
      args: devName,
      varkw: true,
      doc: 'Manage the pause parameters of a network device (autoneg, rx, tx; True or False).',
      run: (ctx, a, extra) => pauseState(ctx, a.name, extra.kwargs),
    }),
  },
});
