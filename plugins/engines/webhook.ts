/**
 * The `webhook` engine (Salt's `salt/engines/webhook.py`): an HTTP server whose every POST
 * becomes an event `salt/engines/hook/<path>` with `{headers, body}`. It is unauthenticated,
 * as Salt's: bind it to a private address, or use netapi's `/hook` for authenticated hooks.
 * Beyond Salt: a body size limit (413 above it) and TLS when `ssl_crt`/`ssl_key` are set.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { z } from 'zod';
import { defineEngine } from '../../kernel/index.js';

const options = z.object({
  address: z.string().default('0.0.0.0'),
  port: z.number().int().min(0).max(65535).default(5000),
  ssl_crt: z.string().optional(),
  ssl_key: z.string().optional(),
  /** Largest accepted body in bytes. */
  max_body: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
});

function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export default defineEngine({
  name: 'webhook',
  doc: 'HTTP POST to any path fires salt/engines/hook/<path> with the headers and body.',
  options,
  start(ctx) {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        if (req.method !== 'POST') {
          res.writeHead(405, { allow: 'POST' }).end();
          return;
        }
        const body = await readBody(req, ctx.options.max_body).catch(() => undefined);
        if (body === undefined) {
          res.writeHead(413).end(`body larger than ${ctx.options.max_body} bytes`);
          return;
        }
        const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
        const text = body.toString('utf8');
        // Salt sends the raw body; text stays text, anything else stays bytes
        const payload = Buffer.from(text, 'utf8').equals(body) ? text : body;
        await ctx.fire(`salt/engines/hook/${path}`, { headers: { ...req.headers }, body: payload });
        res.writeHead(200).end();
      })().catch((err) => {
        ctx.log.error({ err }, 'webhook request failed');
        if (!res.headersSent) res.writeHead(500).end();
      });
    };
    const { ssl_crt, ssl_key } = ctx.options;
    const server =
      ssl_crt && ssl_key
        ? createHttps({ cert: readFileSync(ssl_crt), key: readFileSync(ssl_key) }, handler)
        : createHttp(handler);
    return new Promise<() => Promise<void>>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ctx.options.port, ctx.options.address, () => {
        ctx.log.info({ address: ctx.options.address, port: ctx.options.port }, 'webhook engine listening');
        resolve(() => new Promise<void>((done) => server.close(() => done())));
      });
    });
  },
});
