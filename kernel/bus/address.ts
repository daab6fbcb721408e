/**
 * ZeroMQ endpoint helpers: Salt's `tcp://<interface>:<port>` and `ipc://<sock_dir>/<name>.ipc`.
 */
import { join } from 'node:path';
import { SALT_ERR_BUS_ADDRESS } from '../errors.js';

/** `tcp://host:port`, bracketing IPv6 literals. */
export function tcpAddress(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `tcp://[${host}]:${port}` : `tcp://${host}:${port}`;
}

/** Host and port of a `tcp://host:port` address (IPv6 literals in brackets). */
export function parseTcpAddress(address: string): { host: string; port: number } {
  const m = /^tcp:\/\/(\[[^\]]+\]|[^:/]+):(\d+)$/.exec(address);
  const port = Number(m?.[2]);
  if (!m || !Number.isInteger(port) || port < 1 || port > 65535) throw new SALT_ERR_BUS_ADDRESS(address);
  const host = m[1] as string;
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port };
}

/** `interface` as a host for Node's `listen()`: IPv6 literals without brackets. */
export function bindHost(iface: string): string {
  return iface.startsWith('[') && iface.endsWith(']') ? iface.slice(1, -1) : iface;
}

/** The address a local client should use to reach a master bound to `iface`. */
export function connectHost(iface: string): string {
  if (iface === '0.0.0.0' || iface === '') return '127.0.0.1';
  if (iface === '::' || iface === '[::]') return '::1';
  return iface;
}

/** Where a ZMTP client connects: a TCP host and port, or a unix socket path. */
export type ZmtpEndpoint =
  | { host: string; port: number; path?: never }
  | { path: string; host?: never; port?: never };

/** Just the endpoint of options that hold one among other things. */
export function endpointOf(opts: ZmtpEndpoint): ZmtpEndpoint {
  return opts.path === undefined ? { host: opts.host, port: opts.port } : { path: opts.path };
}

/** The endpoint of a `tcp://host:port` or `ipc://<path>` address. */
export function parseEndpoint(address: string): ZmtpEndpoint {
  if (address.startsWith('ipc://') && address.length > 'ipc://'.length) return { path: address.slice(6) };
  try {
    return parseTcpAddress(address);
  } catch {
    throw new SALT_ERR_BUS_ADDRESS(address);
  }
}

/** The master's unix socket where the request server hands publish loads to the publisher. */
export function publishPullPath(sockDir: string): string {
  return join(sockDir, 'publish_pull.ipc');
}

/** `ipc://<sockDir>/<name>`. */
export function ipcAddress(sockDir: string, name: string): string {
  return `ipc://${join(sockDir, name)}`;
}
