/**
 * The forward proxy of a job's HTTP requests, from Salt's `proxy_host`, `proxy_port`,
 * `proxy_username`, `proxy_password` and `no_proxy` (plugins/http/options.ts), as
 * `salt.utils.http.query` applies them: a proxy when host and port are both set, skipped for a
 * URL whose host name is in `no_proxy` (exact names), with basic auth when both user name and
 * password are set. A plain `http://` request goes to the proxy with the absolute URL; an
 * `https://` one through a `CONNECT` tunnel, TLS end to end.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { ConfigWithExtra } from '../kernel/index.js';
import { httpOptions } from '../plugins/http/options.js';

export interface HttpProxy {
  host: string;
  port: number;
  /** `Basic ...` for Proxy-Authorization, or null. */
  authorization: string | null;
}

/** The http options in a job's `opts` (plugin options under `extra`), defaults filled in. */
export function httpOptionsOf(opts: Readonly<Record<string, unknown>>) {
  const extra = typeof opts.extra === 'object' && opts.extra !== null ? opts.extra : opts;
  return httpOptions.read({ extra } as ConfigWithExtra);
}

/** The proxy a request to `url` goes through, or null (none set, or the host is in `no_proxy`). */
export function proxyFor(opts: Readonly<Record<string, unknown>>, url: string): HttpProxy | null {
  const o = httpOptionsOf(opts);
  let hostname: string;
  try {
    hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
  if (!o.proxy_host || !o.proxy_port || o.no_proxy.includes(hostname)) return null;
  const authorization =
    o.proxy_username && o.proxy_password
      ? `Basic ${Buffer.from(`${o.proxy_username}:${o.proxy_password}`).toString('base64')}`
      : null;
  return { host: o.proxy_host, port: o.proxy_port, authorization };
}

/** The proxy URL pip's `--proxy` takes (credentials included), or null. */
export function proxyUrl(opts: Readonly<Record<string, unknown>>): string | null {
  const o = httpOptionsOf(opts);
  if (!o.proxy_host || !o.proxy_port) return null;
  const auth = o.proxy_username && o.proxy_password ? `${o.proxy_username}:${o.proxy_password}@` : '';
  return `http://${auth}${o.proxy_host}:${o.proxy_port}`;
}

/** Opens a `CONNECT host:port` tunnel through `proxy`; resolves with the raw socket. */
export function tunnel(proxy: HttpProxy, target: URL, connectTimeoutMs: number): Promise<Socket> {
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  const authority = `${target.hostname}:${port}`;
  const headers: Record<string, string> = { Host: authority };
  if (proxy.authorization) headers['Proxy-Authorization'] = proxy.authorization;
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: proxy.host,
      port: proxy.port,
      method: 'CONNECT',
      path: authority,
      headers,
      agent: false,
    });
    const timer = setTimeout(() => req.destroy(new Error('Timeout while connecting')), connectTimeoutMs);
    req.on('connect', (res, socket) => {
      clearTimeout(timer);
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(new Error(`Tunnel connection failed: ${res.statusCode} ${res.statusMessage ?? ''}`.trim()));
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end();
  });
}
