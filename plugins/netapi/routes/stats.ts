/** `GET /stats`: the API's own counters (salt-api shows CherryPy's; tsalt shows its own). */
import type { FastifyInstance } from 'fastify';
import { type NetapiContext, requireIdentity, send } from '../context.js';

export function statsRoutes(app: FastifyInstance, ctx: NetapiContext): void {
  app.get('/stats', async (req, reply) => {
    await requireIdentity(ctx, req);
    const s = ctx.stats;
    return send(req, reply, 200, {
      'tsalt netapi': {
        Uptime: (Date.now() - s.started) / 1000,
        Requests: s.requests,
        Errors: s.errors,
        'SSE Clients': s.sseClients,
        'WebSocket Clients': s.wsClients,
        'Slow Consumers Dropped': s.sseDropped,
        'Event Subscribers': ctx.link.subscriberCount,
        Connections: ctx.connections.counts,
      },
    });
  });
}
