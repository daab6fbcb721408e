/**
 * The running minion's own event bus as a job reaches it (Salt's `get_event('minion', sock_dir)`
 * in `salt/modules/event.py`): the sockets minion/local-bus.ts binds in the minion's `sock_dir`,
 * `minion_event_<hash>_pull.ipc`, `<hash>` the first ten hex digits of the id's SHA-256.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type EventBusAddresses, EventFirer, ipcAddress, parseEndpoint } from '../kernel/services.js';

/** Minion `id`'s own bus under `sockDir`. */
export function ownBusAddresses(sockDir: string, id: string): EventBusAddresses {
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 10);
  return {
    pub: ipcAddress(sockDir, `minion_event_${hash}_pub.ipc`),
    pull: ipcAddress(sockDir, `minion_event_${hash}_pull.ipc`),
  };
}

/**
 * Fires `data` under `tag` on the bus of the minion running here. False, as Salt answers, when
 * no minion runs here (its pull socket is missing) or the event is refused (not a map, no tag).
 */
export async function fireOnOwnBus(
  sockDir: string,
  id: string,
  tag: string,
  data: unknown,
): Promise<boolean> {
  const addrs = ownBusAddresses(sockDir, id);
  const pull = parseEndpoint(addrs.pull).path;
  if (!pull || !existsSync(pull)) return false;
  if (typeof data !== 'object' || data === null || Array.isArray(data) || tag === '') return false;
  const firer = new EventFirer(addrs);
  try {
    firer.fire(tag, { ...(data as Record<string, unknown>) });
  } finally {
    await firer.close(5000);
  }
  return true;
}
