/**
 * `GET /events`: the master bus as Server-Sent Events (salt-api's format: `retry: 400`, then
 * `tag: ...` / `data: {"data": ..., "tag": ...}` per event), filtered to what the user may
 * see and to the `tag` prefixes asked for. A consumer that stays `sse_max_buffer` bytes
 * behind (see {@link slowJudge}) is told why and disconnected, so it never slows the master.
 * `/ws` streams the same events over a WebSocket (salt-api's `data: <json>` frames).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer } from 'ws';
import type { SaltEvent } from '../../../kernel/index.js';
import { identityFromToken, type NetapiContext, requireIdentity, sessionCookie } from '../context.js';
import { cookieValue } from '../cookie.js';
import { corsHeaders } from '../cors.js';
import { NETAPI_ERR_UNAUTHENTICATED } from '../errors.js';
import type { Identity } from '../local-call.js';
import { pyJson } from '../py-json.js';
import { eventFilter } from '../visibility.js';

function tagsOf(query: unknown): string[] {
  const t = (query as Record<string, unknown> | undefined)?.tag;
  if (typeof t === 'string') return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}

/** How long a subscriber may stay above `sse_max_buffer` before it is cut off. */
export const SLOW_GRACE_MS = 1000;

/**
 * Judges a subscriber by its unsent backlog at each new event: over `max` bytes for longer
 * than {@link SLOW_GRACE_MS}, or over 4 x `max` at any time, is too slow. A burst of events
 * (the bus hands them over in batches) briefly over `max` is not; memory per subscriber
 * stays under 4 x `max` plus one event.
 */
export function slowJudge(max: number, now: () => number = Date.now): (backlog: number) => boolean {
  let overSince = 0;
  return (backlog) => {
    if (backlog <= max) {
      overSince = 0;
      return false;
    }
    const t = now();
    if (overSince === 0) overSince = t;
    return backlog > 4 * max || t - overSince > SLOW_GRACE_MS;
  };
}

export function eventRoutes(app: FastifyInstance, ctx: NetapiContext): void {
  app.get('/events', async (req, reply) => {
    const who = await requireIdentity(ctx, req, true);
    if (ctx.stats.sseClients >= ctx.opts.sse_max_clients)
      throw new NETAPI_ERR_UNAUTHENTICATED('too many event stream subscribers');
    const visible = eventFilter(who, (jid) => ctx.link.jobUser(jid), tagsOf(req.query));
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...corsHeaders(ctx.opts, req.headers.origin),
      'Content-Type': 'text/event-stream;charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'Set-Cookie': sessionCookie(who.token),
    });
    res.write('retry: 400\n');
    ctx.stats.sseClients++;
    const tooSlow = slowJudge(ctx.opts.sse_max_buffer);
    let closed = false;
    const close = (reason?: string) => {
      if (closed) return;
      closed = true;
      unsubscribe();
      unregister();
      clearInterval(heartbeat);
      ctx.stats.sseClients--;
      if (reason) {
        ctx.stats.sseDropped++;
        ctx.log.warn({ user: who.user, reason }, 'netapi: event stream closed');
        // the reason ends the stream, then the connection (no keep-alive after a cut): a
        // reader that resumes gets both; one that never does is cut hard after 5 s
        const sock = res.socket;
        res.end(`event: error\ndata: ${pyJson({ reason })}\n\n`, () => sock?.end());
        setTimeout(() => sock?.destroy(), 5000).unref();
      } else res.end();
    };
    const unsubscribe = ctx.link.subscribe((ev: SaltEvent) => {
      if (closed || !visible(ev)) return;
      if (tooSlow(res.writableLength)) {
        close(`slow consumer: more than ${ctx.opts.sse_max_buffer} bytes of events unread`);
        return;
      }
      res.write(`tag: ${ev.tag}\ndata: ${pyJson({ data: ev.data, tag: ev.tag })}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': keepalive\n\n'), 30_000);
    // a revoked or expired token ends the stream
    const unregister = streamOf(ctx, who, close);
    req.raw.on('close', () => close());
    res.on('error', () => close());
  });
}

/** Registers a stream with the token's sessions; returns the function that unregisters it. */
function streamOf(ctx: NetapiContext, who: Identity, close: (reason: string) => void): () => void {
  return who.token ? ctx.streams.add(who.token, close) : () => undefined;
}

/**
 * Serves `/ws[/<token>]` WebSocket upgrades on the app's server (token in the path, `?token=`,
 * `?salt_token=`, `X-Auth-Token` or the session cookie).
 */
export function attachWebSocket(app: FastifyInstance, ctx: NetapiContext): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  // upgraded sockets are no longer the HTTP server's, and server.close() would wait for them
  app.addHook('preClose', async () => {
    for (const ws of wss.clients) ws.terminate();
    wss.close();
  });
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://x');
    } catch {
      // `//`, `http://[` ...: an exception here would be uncaught and end the process
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const m = /^\/(?:ws|all_events)(?:\/([^/]+))?\/?$/.exec(url.pathname);
    if (!m) {
      socket.destroy();
      return;
    }
    socket.on('error', () => socket.destroy());
    const header = req.headers['x-auth-token'];
    const token =
      m[1] ??
      url.searchParams.get('token') ??
      url.searchParams.get('salt_token') ??
      (typeof header === 'string' ? header : undefined) ??
      cookieValue(req.headers.cookie, 'session_id');
    void identityFromToken(ctx, token)
      .then((who: Identity) => {
        ctx.connections.authenticated(req.socket);
        wss.handleUpgrade(req, socket, head, (ws) => {
          ctx.stats.wsClients++;
          const visible = eventFilter(who, (jid) => ctx.link.jobUser(jid), url.searchParams.getAll('tag'));
          let dropped = false;
          const tooSlow = slowJudge(ctx.opts.sse_max_buffer);
          const unsubscribe = ctx.link.subscribe((ev) => {
            if (dropped || ws.readyState !== ws.OPEN || !visible(ev)) return;
            if (!tooSlow(ws.bufferedAmount)) {
              ws.send(`data: ${pyJson({ data: ev.data, tag: ev.tag })}\n\n`);
            } else {
              // bounded: stop feeding it at once, say why, and cut it if it does not read on
              dropped = true;
              unsubscribe();
              ctx.stats.sseDropped++;
              ctx.log.warn({ user: who.user }, 'netapi: slow WebSocket consumer disconnected');
              ws.close(1008, 'slow consumer');
              setTimeout(() => ws.terminate(), 2000).unref();
            }
          });
          // salt-api streams once the client says "websocket client ready"; tsalt streams at
          // once and ignores what clients send (that message included)
          ws.on('message', () => undefined);
          ws.on('error', () => ws.terminate());
          const unregister = streamOf(ctx, who, (reason) => {
            ws.close(1008, reason);
            setTimeout(() => ws.terminate(), 2000).unref();
          });
          ws.on('close', () => {
            ctx.stats.wsClients--;
            unsubscribe();
            unregister();
          });
        });
      })
      .catch(() => {
        socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      });
  });
}
