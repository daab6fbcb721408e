/**
 * The `load` beacon (Salt's `salt/beacons/load.py`): fires the 1/5/15-minute load averages
 * when one leaves its `[min, max]` range (or, with `onchangeonly`, when one crosses a bound).
 *
 *   beacons:
 *     load:
 *       - averages: { 1m: [0.0, 2.0], 5m: [0.0, 1.5], 15m: [0.1, 1.0] }
 *       - onchangeonly: False
 *       - interval: 10
 */
import os from 'node:os';
import { defineBeacon } from '../../kernel/index.js';

const KEYS = ['1m', '5m', '15m'] as const;

function range(config: Readonly<Record<string, unknown>>, key: string): [number, number] | undefined {
  const averages = config.averages as Record<string, unknown> | undefined;
  const r = averages?.[key];
  return Array.isArray(r) && r.length === 2 ? [Number(r[0]), Number(r[1])] : undefined;
}

export default defineBeacon({
  name: 'load',
  doc: 'Emit the load averages when they leave the configured ranges.',
  validate(config) {
    for (const k of ['emitatstartup', 'onchangeonly']) {
      if (k in config && typeof config[k] !== 'boolean')
        return `Configuration for load beacon option ${k} must be a boolean.`;
    }
    const averages = config.averages;
    if (averages !== undefined) {
      if (typeof averages !== 'object' || averages === null)
        return 'Averages configuration is required for load beacon.';
      for (const [k, v] of Object.entries(averages)) {
        if (!(KEYS as readonly string[]).includes(k))
          return `Averages keys must be one of 1m, 5m, 15m, not ${k}.`;
        if (!Array.isArray(v) || v.length !== 2 || v.some((n) => !Number.isFinite(Number(n)))) {
          return `Configuration for load beacon: ${k} must be a list of two numbers [min, max].`;
        }
      }
    }
    return true;
  },
  beacon(ctx, config) {
    const onchangeonly = config.onchangeonly === true;
    const emitatstartup = config.emitatstartup !== false;
    const [m1, m5, m15] = os.loadavg();
    const now: Record<string, number> = { '1m': m1 ?? 0, '5m': m5 ?? 0, '15m': m15 ?? 0 };
    const last = ctx.state.get('last') as Record<string, number> | undefined;
    if (onchangeonly && !last) {
      ctx.state.set('last', now);
      if (!emitatstartup) return [];
    }
    let send = false;
    for (const k of KEYS) {
      const r = range(config, k);
      if (!r) continue;
      const [min, max] = r;
      const v = now[k]!;
      const prev = (ctx.state.get('last') as Record<string, number> | undefined)?.[k] ?? v;
      send = onchangeonly ? (v > max && prev < max) || (v < min && prev > min) : v < min || v > max;
      if (send) break;
    }
    if (onchangeonly) ctx.state.set('last', now);
    return send ? [{ ...now }] : [];
  },
});
