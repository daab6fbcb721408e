/**
 * A real context for unit tests of beacons: `call` runs the execution function through
 * `salt-call --local --out json` (a masterless minion under `root`), the way a minion's
 * beacon asks its executor; `log` keeps what the beacon logs.
 */
import type { BeaconContext } from '../../kernel/beacons/define.js';
import { memoryLogger } from '../../modules/_fake-ctx.js';
import { localCaller } from './local-call.js';

/** An argument as `salt-call` reads it back (YAML): strings as they are, the rest as JSON. */
const cliArg = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

export interface BeaconTestContext extends BeaconContext {
  readonly log: ReturnType<typeof memoryLogger>;
  /** The functions called, in order, with their arguments. */
  readonly calls: string[];
}

/** A beacon context whose `call` runs real execution functions under `root`. */
export function beaconCtx(root: string): BeaconTestContext {
  const local = localCaller(root, 'beacon-unit');
  const calls: string[] = [];
  return {
    opts: {},
    grains: {},
    log: memoryLogger(),
    state: new Map(),
    calls,
    async call(fun, args = [], kwargs = {}) {
      const argv = [...args.map(cliArg), ...Object.entries(kwargs).map(([k, v]) => `${k}=${cliArg(v)}`)];
      calls.push([fun, ...argv].join(' '));
      const r = await local(fun, ...argv);
      if (r.code !== 0 || r.local === undefined) throw new Error(r.output.trim());
      return r.local;
    },
  };
}
