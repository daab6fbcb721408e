import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { type FixtureServer, startFixtureServer } from '../test/support/http-fixture-server.js';
import cpMod from './cp.js';
import httpMod from './http.js';

/** What the forward proxy was asked: `GET http://...` lines and `CONNECT host:port`. */
interface Seen {
  line: string;
  auth: string | null;
}

/** A forward proxy on loopback: absolute-URI requests relayed, CONNECT tunnelled. */
async function startProxy(): Promise<{ port: number; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    seen.push({ line: `${req.method} ${req.url}`, auth: req.headers['proxy-authorization'] ?? null });
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const up = http.request(target, { method: req.method, headers, agent: false }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  server.on('connect', (req, client: net.Socket, head: Buffer) => {
    seen.push({ line: `CONNECT ${req.url}`, auth: req.headers['proxy-authorization'] ?? null });
    const [host = '', port = '443'] = (req.url ?? '').split(':');
    sockets.add(client);
    const up = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up);
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** An HTTPS server with a throwaway self-signed certificate, answering `secret` on every path. */
async function startHttps(dir: string): Promise<{ port: number; close(): Promise<void> }> {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('secret');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const dir = mkdtempSync(join(tmpdir(), 'tsalt-proxy-'));
let origin: FixtureServer;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let secure: Awaited<ReturnType<typeof startHttps>> | undefined;
/** The origin by the name `localhost` (through the proxy unless no_proxy names it). */
const viaName = (path: string): string => origin.url.replace('127.0.0.1', 'localhost') + path;

function ctxWith(extra: Record<string, unknown>) {
  return moduleCtx([httpMod, cpMod], {
    opts: {
      cachedir: join(dir, 'cache'),
      extra: { proxy_host: '127.0.0.1', proxy_port: proxy.port, ...extra },
    },
  });
}

beforeAll(async () => {
  origin = await startFixtureServer();
  proxy = await startProxy();
  if (hasOpenssl) secure = await startHttps(dir);
});
afterAll(async () => {
  await origin.close();
  await proxy.close();
  await secure?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('proxy_host/proxy_port/no_proxy, as salt.utils.http.query applies them', () => {
  it('http.query goes through the proxy with the absolute URL and basic proxy auth', async () => {
    proxy.seen.length = 0;
    const ctx = ctxWith({ proxy_username: 'pxu', proxy_password: 'pxp' });
    expect(await ctx.call('http.query', [viaName('/text')], { status: true })).toEqual({
      body: 'hello\n',
      status: 200,
    });
    expect(proxy.seen).toEqual([
      { line: `GET ${viaName('/text')}`, auth: `Basic ${Buffer.from('pxu:pxp').toString('base64')}` },
    ]);
  });

  it('no auth without both user name and password; no proxy without a port', async () => {
    proxy.seen.length = 0;
    await ctxWith({ proxy_username: 'pxu' }).call('http.query', [viaName('/text')]);
    expect(proxy.seen).toEqual([{ line: `GET ${viaName('/text')}`, auth: null }]);
    proxy.seen.length = 0;
    const direct = ctxWith({ proxy_port: 0 });
    expect(await direct.call('http.query', [viaName('/text')])).toEqual({ body: 'hello\n' });
    expect(proxy.seen).toEqual([]);
  });

  it('no_proxy names hosts asked directly (exact names: 127.0.0.1 does not cover localhost)', async () => {
    proxy.seen.length = 0;
    const ctx = ctxWith({ no_proxy: ['localhost'] });
    expect(await ctx.call('http.query', [viaName('/json')], { decode: true })).toMatchObject({
      dict: { a: 1, b: [1, 2] },
    });
    expect(proxy.seen).toEqual([]);
    await ctxWith({ no_proxy: ['127.0.0.1'] }).call('http.query', [viaName('/json')]);
    expect(proxy.seen).toEqual([{ line: `GET ${viaName('/json')}`, auth: null }]);
  });

  it.runIf(hasOpenssl)('https goes through a CONNECT tunnel, TLS to the origin', async () => {
    proxy.seen.length = 0;
    const url = `https://localhost:${secure?.port}/x`;
    const ctx = ctxWith({ proxy_username: 'a', proxy_password: 'b' });
    expect(await ctx.call('http.query', [url], { verify_ssl: false })).toEqual({ body: 'secret' });
    expect(proxy.seen).toEqual([
      { line: `CONNECT localhost:${secure?.port}`, auth: `Basic ${Buffer.from('a:b').toString('base64')}` },
    ]);
    // the certificate is still checked through the tunnel
    const checked = (await ctx.call('http.query', [url])) as { error?: string };
    expect(checked.error).toMatch(/self[- ]signed/i);
  });

  it('cp.get_url fetches through the proxy too, and directly for a no_proxy host', async () => {
    proxy.seen.length = 0;
    const dest = join(dir, 'got.txt');
    expect(await ctxWith({}).call('cp.get_url', [viaName('/text'), dest])).toBe(dest);
    expect(readFileSync(dest, 'utf8')).toBe('hello\n');
    expect(proxy.seen).toEqual([{ line: `GET ${viaName('/text')}`, auth: null }]);
    proxy.seen.length = 0;
    expect(await ctxWith({ no_proxy: ['localhost'] }).call('cp.get_url', [viaName('/json'), null])).toBe(
      '{"a": 1, "b": [1, 2]}',
    );
    expect(proxy.seen).toEqual([]);
  });

  it('a proxy nobody listens on is an error, not a direct request', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(
      await ctxWith({ proxy_port: port }).call('http.query', [viaName('/text')], { status: true }),
    ).toEqual({
      status: 0,
      error: '[Errno 111] Connection refused',
    });
  });
});
