/**
 * A small HTTP server on loopback for tests of HTTP clients (`http.query`): JSON, text, YAML
 * and gzip answers, a 404, and `/echo`, which answers what it was sent. No Date header, so
 * its answers are the same every time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

export interface FixtureServer {
  url: string;
  close(): Promise<void>;
}

function answer(req: http.IncomingMessage, res: http.ServerResponse, body: string): http.ServerResponse {
  res.sendDate = false;
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const send = (
    status: number,
    type: string,
    text: string | Buffer,
    extra: Record<string, string> = {},
  ): http.ServerResponse => {
    res.writeHead(status, {
      'Content-Type': type,
      'Content-Length': String(Buffer.byteLength(text)),
      ...extra,
    });
    return res.end(text);
  };
  switch (path) {
    case '/json':
      return send(200, 'application/json', '{"a": 1, "b": [1, 2]}');
    case '/text':
      return send(200, 'text/plain; charset=utf-8', 'hello\n');
    case '/yaml':
      return send(200, 'application/x-yaml', 'a: 1\nb: [x, y]\n');
    case '/gzip':
      return send(200, 'text/plain', zlib.gzipSync('zipped'), { 'Content-Encoding': 'gzip' });
    case '/echo':
      return send(
        200,
        'application/json',
        JSON.stringify({
          method: req.method,
          url: req.url,
          agent: req.headers['user-agent'] ?? null,
          type: req.headers['content-type'] ?? null,
          auth: req.headers.authorization ?? null,
          x: req.headers['x-tsalt'] ?? null,
          body,
        }),
      );
    default:
      return send(404, 'text/plain', 'no such page');
  }
}

/** Starts the server on 127.0.0.1 (`port` 0: any free port). */
export function startFixtureServer(port = 0): Promise<FixtureServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: p } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${p}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
