import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { type FixtureServer, startFixtureServer } from '../test/support/http-fixture-server.js';
import httpMod from './http.js';

// Expectations: Salt 3006.18's http.query against the same server (its tornado backend).
let srv: FixtureServer;
const ctx = moduleCtx([httpMod]);
const q = (path: string, kw: Record<string, unknown> = {}) =>
  ctx.call('http.query', [`${srv.url}${path}`], kw);

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

beforeAll(async () => {
  srv = await startFixtureServer();
});
afterAll(() => srv.close());

describe('http.query against a local server', () => {
  it('returns the body, and status, headers, text and the decoded dict on request', async () => {
    expect(await q('/text')).toEqual({ body: 'hello\n' });
    expect(await q('/json', { status: true, headers: true, decode: true, text: true })).toEqual({
      body: '{"a": 1, "b": [1, 2]}',
      status: 200,
      headers: { 'Content-Type': 'application/json', 'Content-Length': '21', Connection: 'close' },
      dict: { a: 1, b: [1, 2] },
      text: '{"a": 1, "b": [1, 2]}',
    });
    expect(await q('/yaml', { decode: true })).toEqual({
      body: 'a: 1\nb: [x, y]\n',
      dict: { a: 1, b: ['x', 'y'] },
    });
    expect(await q('/text', { decode: true })).toEqual({ body: 'hello\n', text: 'hello\n' });
    expect(await q('/gzip')).toEqual({ body: 'zipped' });
  });

  it('sends the method, params, form data, headers, basic auth and Salt’s user agent', async () => {
    const r = (await q('/echo', {
      method: 'POST',
      params: { k: 'v w' },
      data: { a: '1', b: 'x&y' },
      header_list: ['X-Tsalt: yes'],
      username: 'bob',
      password: 'pw',
      decode: true,
    })) as { dict: Record<string, unknown> };
    expect(r.dict).toEqual({
      method: 'POST',
      url: '/echo?k=v+w',
      agent: 'Salt/3006.18 http.query()',
      type: 'application/x-www-form-urlencoded',
      auth: `Basic ${Buffer.from('bob:pw').toString('base64')}`,
      x: 'yes',
      body: 'a=1&b=x%26y',
    });
  });

  it('sends values as Python prints them (YAML `{k:v}` is {"k:v": None})', async () => {
    const r = (await q('/echo', {
      method: 'PUT',
      params: { 'k:v': null },
      data: { ok: true },
      decode: true,
    })) as {
      dict: Record<string, unknown>;
    };
    expect(r.dict).toMatchObject({ method: 'PUT', url: '/echo?k%3Av=None', type: null, body: 'ok=True' });
  });

  it('answers a 404 and a refused connection as Salt does', async () => {
    expect(await q('/nope', { status: true })).toEqual({
      status: 404,
      error: 'HTTP 404: Not Found',
      body: 'no such page',
    });
    expect(await q('/nope', { status: true, raise_error: false })).toEqual({
      body: 'no such page',
      status: 404,
    });
    const port = await closedPort();
    expect(await ctx.call('http.query', [`http://127.0.0.1:${port}/`], { status: true })).toEqual({
      status: 0,
      error: '[Errno 111] Connection refused',
    });
    expect(await q('/text', { test: true })).toEqual({});
    expect(await q('/json', { decode: true, decode_type: 'toml' })).toEqual({
      body: '{"a": 1, "b": [1, 2]}',
      error: "Invalid decode_type specified. Valid decode types are: ('json', 'xml', 'yaml', 'plain')",
    });
  });

  it('waits for a successful query', async () => {
    expect(
      await ctx.call('http.wait_for_successful_query', [`${srv.url}/json`], { decode: true }),
    ).toMatchObject({
      dict: { a: 1, b: [1, 2] },
    });
    const port = await closedPort();
    expect(
      await ctx.call('http.wait_for_successful_query', [`http://127.0.0.1:${port}/`], {
        wait_for: 0.3,
        request_interval: 0.1,
      }),
    ).toEqual({ error: '[Errno 111] Connection refused' });
  });
});

describe('the http_* options (plugins/http/options.ts)', () => {
  // Salt 3006.18 crashes on both ('NoneType' object has no attribute 'body'); tsalt answers an error
  const limited = moduleCtx([httpMod], { opts: { extra: { http_max_body: 10, http_request_timeout: 1 } } });

  it('http_max_body: a larger body is an error, a smaller one passes', async () => {
    expect(await limited.call('http.query', [`${srv.url}/json`], { status: true })).toEqual({
      status: 0,
      error: 'Content-Length too long',
    });
    expect(await limited.call('http.query', [`${srv.url}/text`])).toEqual({ body: 'hello\n' });
  });

  it('http_request_timeout: a server that never answers is a timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const { port } = silent.address() as { port: number };
    try {
      expect(await limited.call('http.query', [`http://127.0.0.1:${port}/`], { status: true })).toEqual({
        status: 0,
        error: 'Timeout during request',
      });
    } finally {
      silent.close();
    }
  });

  it('a bad value is a config error naming the option', async () => {
    const bad = moduleCtx([httpMod], { opts: { extra: { http_max_body: 'lots' } } });
    expect(await bad.call('http.query', [`${srv.url}/text`])).toEqual({
      error: expect.stringContaining('http_max_body: expected an integer >= 0, got "lots"'),
    });
  });
});
