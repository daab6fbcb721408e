/**
 * What every client of the local master needs (`salt`, `salt-run`, netapi's clients): a
 * request socket to the master's ret port, a live subscription to the master event bus, and
 * the master's key for the current OS user. Failures are SALT_ERR_CLIENT_PUBLISH with the
 * reason an operator acts on.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { connectHost, tcpAddress } from '../kernel/bus/address.js';
import { EventListener, masterEventAddresses } from '../kernel/bus/event-bus.js';
import { ReqClient } from '../kernel/bus/req-client.js';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import { SaltError } from '../kernel/errors.js';
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

/**
 * The current OS user: asked once (`os.userInfo()` reads the user database, six system calls,
 * which a long-lived client's publishes need not repeat).
 */
let ownUser: string | undefined;

/** The name of the OS user this process runs as (the `user` of a publish), asked once. */
export function ownUserName(): string {
  ownUser ??= userInfo().username;
  return ownUser;
}

/** Keys read, by path, with the identity of the file they came from. */
const keys = new Map<string, { ino: number; mtimeMs: number; size: number; key: string }>();

/**
 * The master's key for the current OS user; `purpose` ends the error text ("publish", "run
 * runners"). A long-lived client (salt-api, the bench) publishes many times: the file is read
 * again only when a stat shows it changed (the master rewrites it at every start), which costs
 * a few µs where four asynchronous file operations cost ~0.15 ms a publish.
 */
export async function readOwnUserKey(config: ResolvedMasterConfig, purpose: string): Promise<string> {
  const user = ownUserName();
  const path = userKeyPath(config.cachedir, user);
  try {
    const st = statSync(path);
    const known = keys.get(path);
    if (known && known.ino === st.ino && known.mtimeMs === st.mtimeMs && known.size === st.size)
      return known.key;
    const key = readFileSync(path, 'utf8').trim();
    keys.set(path, { ino: st.ino, mtimeMs: st.mtimeMs, size: st.size, key });
    return key;
  } catch {
    keys.delete(path);
    throw new SaltError(
      SALT_ERR_CLIENT_PUBLISH,
      `cannot read the master's key for user ${user} in ${config.cachedir}: is the salt master running, and may this user ${purpose}?`,
    );
  }
}
