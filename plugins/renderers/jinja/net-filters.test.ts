// dns_check resolves through /etc/hosts only (localhost); http_query talks to a server the test
// starts on loopback. Expected values are what Salt 3006.18's filters returned for the same calls.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { float64 } from '../../../kernel/util.js';
import { NET_FILTERS } from './net-filters.js';

const dnsCheck = NET_FILTERS.dns_check!;
const httpQuery = NET_FILTERS.http_query!;
let server: Server;
let base: string;
let listening: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/d.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"a": 1, "b": [2.5, "x"]}');
    } else if (req.url?.startsWith('/t.txt')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`hello ${req.method} ${req.url}`);
    } else {
      res.writeHead(404, 'Not Found');
      res.end('nope');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  listening = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${listening}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('dns_check', () => {
  it('gives the address of a name from /etc/hosts, and of an IP, whatever the port', async () => {
    expect(await dnsCheck('localhost', [listening], {})).toBe('127.0.0.1');
    expect(await dnsCheck('127.0.0.1', [float64(1)], { ipv6: false })).toBe('127.0.0.1');
  });

  it("names the address it could not resolve, as Salt's SaltSystemExit does", async () => {
    await expect(dnsCheck('no-such-host.invalid', [22], {})).rejects.toThrow(
      "DNS lookup or connection check of 'no-such-host.invalid' failed.",
    );
  });
});

describe('http_query', () => {
  it('returns the body, and the status, text and decoded dict when asked', async () => {
    expect(await httpQuery(`${base}/t.txt`, [], {})).toEqual({ body: 'hello GET /t.txt' });
    expect(await httpQuery(`${base}/t.txt`, [], { params: { q: 'a b' }, text: true, status: true })).toEqual({
      body: 'hello GET /t.txt?q=a+b',
      status: 200,
      text: 'hello GET /t.txt?q=a+b',
    });
    expect(await httpQuery(`${base}/d.json`, [], { decode: true })).toEqual({
      body: '{"a": 1, "b": [2.5, "x"]}',
      dict: { a: 1, b: [2.5, 'x'] },
    });
  });

  it('reports an HTTP error and a refused connection as Salt does, without throwing', async () => {
    expect(await httpQuery(`${base}/missing`, [], {})).toEqual({
      status: 404,
      error: 'HTTP 404: Not Found',
      body: 'nope',
    });
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await httpQuery(`http://127.0.0.1:${port}/x`, [], { status: true })).toEqual({
      status: 0,
      error: '[Errno 111] Connection refused',
    });
  });
});
