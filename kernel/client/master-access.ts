/**
 * What every client of the local master needs (`salt`, `salt-run`, netapi's clients): a
 * request socket to the master's ret port, a live subscription to the master event bus, and
 * the master's key for the current OS user. Failures are SALT_ERR_CLIENT_PUBLISH with the
 * reason an operator acts on.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { connectHost, tcpAddress } from '../bus/address.js';
import { EventListener, masterEventAddresses } from '../bus/event-bus.js';
import { ReqClient } from '../bus/req-client.js';
import type { ResolvedMasterConfig } from '../config/index.js';
import { SaltError } from '../errors.js';
import { userKeyPath } from './user-key-path.js';

export const SALT_ERR_CLIENT_PUBLISH = 'SALT_ERR_CLIENT_PUBLISH';

/** A request socket to the master's ret port, bounded by the config's `timeout`. */
export function masterRequestClient(config: ResolvedMasterConfig): ReqClient {
  return new ReqClient(tcpAddress(connectHost(config.interface), config.ret_port), {
    timeoutMs: Math.max(5000, config.timeout * 1000),
    tries: 1,
  });
}

/** A listener on the master bus for `prefixes`, resolved once its subscription is live. */
export async function listenToMasterBus(
  config: ResolvedMasterConfig,
  prefixes: readonly string[],
): Promise<EventListener> {
  const pubSock = join(config.sock_dir, 'master_event_pub.ipc');
  if (!existsSync(pubSock)) {
    throw new SaltError(
      SALT_ERR_CLIENT_PUBLISH,
      `The salt master could not be contacted: ${pubSock} does not exist. Is the salt-master running?`,
    );
  }
  const listener = new EventListener(masterEventAddresses(config.sock_dir), prefixes);
  await listener.ready(5000).catch((err: Error) => {
    listener.close();
    throw new SaltError(
      SALT_ERR_CLIENT_PUBLISH,
      `the salt master is not running or not reachable: ${err.message}`,
    );
  });
  return listener;
}

/** The master's key for the current OS user; `purpose` ends the error text ("publish", "run runners"). */
export async function readOwnUserKey(config: ResolvedMasterConfig, purpose: string): Promise<string> {
  const user = userInfo().username;
  try {
    return (await readFile(userKeyPath(config.cachedir, user), 'utf8')).trim();
  } catch {
    throw new SaltError(
      SALT_ERR_CLIENT_PUBLISH,
      `cannot read the master's key for user ${user} in ${config.cachedir}: is the salt master running, and may this user ${purpose}?`,
    );
  }
}
