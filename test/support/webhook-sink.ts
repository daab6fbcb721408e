/**
 * A webhook receiver on loopback for tests of the chat and alerting modules: it records each
 * request (method, URL, content type, body) and answers by the path's last part: `nc` 204,
 * `bad` 400 with a JSON error, `err` 500, `created` 201 with JSON, `json` 200 with JSON, and
 * anything else 200 `ok` as text.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  type: string | null;
  body: string;
}

export interface WebhookSink {
  url: string;
  /** The requests received since the last call, oldest first. */
  take(): SeenRequest[];
  close(): Promise<void>;
}

function answer(path: string, res: http.ServerResponse): void {
  const send = (status: number, type: string, body: string) => {
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(body);
  };
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (last === 'nc') {
    res.writeHead(204);
    res.end();
  } else if (last === 'bad') send(400, 'application/json', '{"error": "bad hook"}');
  else if (last === 'err') send(500, 'text/plain', 'boom');
  else if (last === 'created') send(201, 'application/json', '{"id": 7}');
  else if (last === 'json') send(200, 'application/json', '{"ok": true}');
  else send(200, 'text/plain', 'ok');
}

export function startWebhookSink(): Promise<WebhookSink> {
  let seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.sendDate = false;
      const url = req.url ?? '/';
      seen.push({
        method: req.method ?? '',
        url,
        type: req.headers['content-type'] ?? null,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      answer(new URL(url, 'http://x').pathname, res);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        take: () => {
          const out = seen;
          seen = [];
          return out;
        },
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
