/** A beacon's context for unit tests: its own state map, a silent log, no execution functions. */
import type { BeaconContext } from '../../kernel/index.js';

export function beaconCtx(call?: BeaconContext['call']): BeaconContext {
  const quiet = () => {};
  return {
    opts: {},
    grains: {},
    log: { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet },
    state: new Map(),
    call: call ?? (async (fun) => Promise.reject(new Error(`'${fun}' is not available.`))),
  };
}
