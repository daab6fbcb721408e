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
/** A positional string the CLI would read as `key=value`. */
const looksKeyword = (v: unknown): boolean => typeof v === 'string' && /^\s*[A-Za-z_][\w.-]*=/.test(v);

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
      let positional = [...args];
      const named: Record<string, unknown> = {};
      if (positional.some(looksKeyword)) {
        // the CLI cannot pass such a string positionally: name it after the function's argspec
        const spec = (await local('sys.argspec', fun)).local as Record<string, { args: string[] }>;
        for (const [i, v] of positional.entries()) named[spec[fun]?.args[i] ?? `arg${i}`] = v;
        positional = [];
      }
      Object.assign(named, kwargs);
      const argv = [...positional.map(cliArg), ...Object.entries(named).map(([k, v]) => `${k}=${cliArg(v)}`)];
      calls.push([fun, ...argv].join(' '));
      const r = await local(fun, ...argv);
      // a failure prints text; a return (cmd.retcode's too, whatever the exit code) prints JSON
      if (r.local === undefined) throw new Error(r.output.trim());
      return r.local;
    },
  };
}
