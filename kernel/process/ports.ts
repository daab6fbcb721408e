/**
 * Port checks before a daemon forks its children, so "address already in use" reaches the
 * user at start with the address, and a free-port helper for tests.
 */

import { createServer, isIPv6 } from 'node:net';
import { SALT_ERR_BUS_ADDRESS_IN_USE, SALT_ERR_PROCESS_PORT } from '../errors.js';
import { errnoCode } from '../guards.js';

const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'address not available on this host',
  EAFNOSUPPORT: 'address family not supported',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
};

/** `host:port`, with IPv6 hosts in brackets. */
export function formatAddress(host: string, port: number): string {
  return isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
}

function listenOnce(host: string, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => {
      const addr = server.address();
      const bound = typeof addr === 'object' && addr !== null ? addr.port : port;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * Resolves if `host:port` can be bound now. Throws SALT_ERR_BUS_ADDRESS_IN_USE when it is
 * busy, SALT_ERR_PROCESS_PORT for any other bind failure (no such address, no privilege).
 */
export async function assertPortFree(host: string, port: number): Promise<void> {
  const address = formatAddress(host, port);
  try {
    await listenOnce(host, port);
  } catch (err) {
    const errno = errnoCode(err);
    if (errno === 'EADDRINUSE') {
      throw new SALT_ERR_BUS_ADDRESS_IN_USE(address, { cause: err, details: { host, port } });
    }
    const why = errno ? `${REASONS[errno] ?? 'error'} (${errno})` : String(err);
    throw new SALT_ERR_PROCESS_PORT(address, why, { cause: err, details: { host, port, errno } });
  }
}

/** A TCP port that was free a moment ago on `host` (the OS picks it). For tests. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  try {
    return await listenOnce(host, 0);
  } catch (err) {
    const errno = errnoCode(err);
    throw new SALT_ERR_PROCESS_PORT(formatAddress(host, 0), errno ?? String(err), { cause: err });
  }
}
