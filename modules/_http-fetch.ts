/**
 * One HTTP(S) request the way Salt's `http.query` makes it with its default (tornado) backend:
 * no redirects followed, the body read whole (up to a cap) and gzip/deflate bodies inflated,
 * response header names in tornado's capitalised form, and transport errors in Python's words
 * (`[Errno 111] Connection refused`); through the configured forward proxy when there is one.
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import tls from 'node:tls';
import zlib from 'node:zlib';
import { type HttpProxy, tunnel } from './_http-proxy.js';
import { pythonOsError } from './_python-oserror.js';

export interface FetchSpec {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  auth: { user: string; pass: string } | null;
  verifySsl: boolean;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  maxBody: number;
  signal?: AbortSignal;
  /** The forward proxy (`proxyFor`), or none. */
  proxy?: HttpProxy | null;
}

export interface FetchResult {
  status: number;
  reason: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** `content-type` → `Content-Type`, as tornado's HTTPHeaders prints names. */
export const headerName = (n: string): string =>
  n
    .split('-')
    .map((w) => (w ? (w[0] as string).toUpperCase() + w.slice(1).toLowerCase() : w))
    .join('-');

function inflate(coding: string, body: Buffer): Buffer {
  try {
    if (coding === 'gzip') return zlib.gunzipSync(body);
    if (coding === 'deflate') return zlib.inflateSync(body);
  } catch {
    // not what it says it is: keep the bytes
  }
  return body;
}

/** Sends the request; rejects with a Python-worded Error on a transport failure or a timeout. */
export async function fetchOnce(spec: FetchSpec): Promise<FetchResult> {
  const u = new URL(spec.url);
  if (!spec.proxy) return send(spec, u, {});
  if (u.protocol !== 'https:') {
    // the proxy gets the absolute URL; the origin's Host header stays
    const { host, port } = spec.proxy;
    const via: http.RequestOptions = { hostname: host, host, port, path: u.href };
    const extra: Record<string, string> = { Host: u.host };
    if (spec.proxy.authorization) extra['Proxy-Authorization'] = spec.proxy.authorization;
    return send(spec, u, via, extra);
  }
  let raw: Socket;
  try {
    raw = await tunnel(spec.proxy, u, spec.connectTimeoutMs);
  } catch (err) {
    throw new Error(`Cannot connect to proxy: ${pythonOsError(err as NodeJS.ErrnoException)}`);
  }
  const secure = tls.connect({ socket: raw, servername: u.hostname, rejectUnauthorized: spec.verifySsl });
  return send(spec, u, { agent: undefined, createConnection: () => secure });
}

function send(
  spec: FetchSpec,
  u: URL,
  via: http.RequestOptions,
  extraHeaders: Record<string, string> = {},
): Promise<FetchResult> {
  const lib = u.protocol === 'https:' && !via.path ? https : http;
  const headers: Record<string, string> = { ...spec.headers, ...extraHeaders };
  if (spec.auth)
    headers.Authorization = `Basic ${Buffer.from(`${spec.auth.user}:${spec.auth.pass}`).toString('base64')}`;
  // tornado's client closes each connection; so does this one (no keep-alive agent)
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'connection')) headers.Connection = 'close';
  if (spec.body !== null) headers['Content-Length'] = String(Buffer.byteLength(spec.body));
  return new Promise((resolve, reject) => {
    const req = lib.request(
      u,
      {
        method: spec.method,
        headers,
        agent: false,
        rejectUnauthorized: spec.verifySsl,
        signal: spec.signal,
        ...via,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > spec.maxBody) {
            clearTimeout(timer);
            reject(new Error('Content-Length too long'));
            req.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          clearTimeout(timer);
          const out: Record<string, string> = {};
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = headerName(res.rawHeaders[i] as string);
            const value = res.rawHeaders[i + 1] as string;
            out[name] = name in out ? `${out[name]},${value}` : value;
          }
          const coding = (res.headers['content-encoding'] ?? 'identity').toLowerCase();
          resolve({
            status: res.statusCode ?? 0,
            reason: res.statusMessage ?? '',
            headers: out,
            body: inflate(coding, Buffer.concat(chunks)),
          });
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error('Timeout during request')), spec.requestTimeoutMs);
    req.on('socket', (sock) => {
      if (!sock.connecting) return;
      const t = setTimeout(() => req.destroy(new Error('Timeout while connecting')), spec.connectTimeoutMs);
      sock.once('connect', () => clearTimeout(t));
      sock.once('close', () => clearTimeout(t));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(pythonOsError(err)));
    });
    req.end(spec.body ?? undefined);
  });
}
