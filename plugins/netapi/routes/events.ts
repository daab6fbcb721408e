/**
 * `GET /events`: the master bus as Server-Sent Events (salt-api's format: `retry: 400`, then
 * `tag: ...` / `data: {"data": ..., "tag": ...}` per event), filtered to what the user may
 * see and to the `tag` prefixes asked for. A consumer that falls `sse_max_buffer` bytes
 * behind is told why and disconnected, so it never slows the master. `/ws` streams the same
 * events over a WebSocket (salt-api's `data: <json>` frames).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer } from 'ws';
import type { SaltEvent } from '../../../kernel/jobs/types.js';
import type { Identity } from '../clients.js';
import { identityFromToken, type NetapiContext, requireIdentity, sessionCookie } from '../context.js';
import { corsHeaders } from '../cors.js';
import { NETAPI_ERR_UNAUTHENTICATED } from '../errors.js';
import { pyJson } from '../py-json.js';
import { eventFilter } from '../visibility.js';

function tagsOf(query: unknown): string[] {
  const t = (query as Record<string, unknown> | undefined)?.tag;
  if (typeof t === 'string') return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
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
      ...corsHeaders(ctx, req),
      'Content-Type': 'text/event-stream;charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'Set-Cookie': sessionCookie(who.token),
    });
    res.write('retry: 400\n');
    ctx.stats.sseClients++;
    let closed = false;
    const close = (reason?: string) => {
      if (closed) return;
      closed = true;
      unsubscribe();
      clearInterval(heartbeat);
      clearInterval(recheck);
      ctx.stats.sseClients--;
      if (reason) {
        ctx.stats.sseDropped++;
        ctx.log.warn({ user: who.user, reason }, 'netapi: event stream closed');
        res.end(`event: error\ndata: ${pyJson({ reason })}\n\n`);
        setTimeout(() => res.destroy(), 2000).unref();
      } else res.end();
    };
    const unsubscribe = ctx.link.subscribe((ev: SaltEvent) => {
      if (closed || !visible(ev)) return;
      res.write(`tag: ${ev.tag}\ndata: ${pyJson({ data: ev.data, tag: ev.tag })}\n\n`);
      if (res.writableLength > ctx.opts.sse_max_buffer)
        close(`slow consumer: more than ${ctx.opts.sse_max_buffer} bytes of events unread`);
    });
    const heartbeat = setInterval(() => res.write(': keepalive\n\n'), 30_000);
    // a revoked or expired token ends the stream
    const recheck = setInterval(() => {
      void identityFromToken(ctx, who.token).catch(() => close('the token expired or was revoked'));
    }, 10_000);
    req.raw.on('close', () => close());
    res.on('error', () => close());
  });
}

/** Serves `/ws[/<token>]` WebSocket upgrades on the app's server. */
export function attachWebSocket(app: FastifyInstance, ctx: NetapiContext): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const m = /^\/(?:ws|all_events)(?:\/([^/]+))?\/?$/.exec(url.pathname);
    if (!m) {
      socket.destroy();
      return;
    }
    const token =
      m[1] ?? url.searchParams.get('token') ?? (req.headers['x-auth-token'] as string | undefined);
    void identityFromToken(ctx, token)
      .then((who: Identity) => {
        wss.handleUpgrade(req, socket, head, (ws) => {
          ctx.stats.wsClients++;
          const visible = eventFilter(who, (jid) => ctx.link.jobUser(jid), url.searchParams.getAll('tag'));
          const unsubscribe = ctx.link.subscribe((ev) => {
            if (!visible(ev)) return;
            ws.send(`data: ${pyJson({ data: ev.data, tag: ev.tag })}\n\n`);
            if (ws.bufferedAmount > ctx.opts.sse_max_buffer) {
              ctx.stats.sseDropped++;
              ws.close(1008, 'slow consumer');
            }
          });
          ws.on('close', () => {
            ctx.stats.wsClients--;
            unsubscribe();
          });
        });
      })
      .catch(() => {
        socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      });
  });
}
