/**
 * Salt's `tcp_keepalive` options for the master's ZMTP ports (kernel/bus/zmtp/server.ts), as
 * Salt's publish daemon sets them on its socket: without keepalive, a minion whose host lost
 * power stays connected (and "present") until the kernel gives up on a write. Node sets only the
 * idle time; `tcp_keepalive_cnt` and `tcp_keepalive_intvl` keep the system's values.
 */
import type { ResolvedMasterConfig } from '../kernel/config/index.js';

/** The idle time before the first probe in ms (0: the system's), or undefined when disabled. */
export function keepAliveIdleMs(
  config: Pick<ResolvedMasterConfig, 'tcp_keepalive' | 'tcp_keepalive_idle'>,
): number | undefined {
  if (!config.tcp_keepalive) return undefined;
  return config.tcp_keepalive_idle > 0 ? config.tcp_keepalive_idle * 1000 : 0;
}
