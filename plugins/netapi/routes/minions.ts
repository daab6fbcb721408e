/**
 * `GET /minions[/:mid]` (grains from the master's minion data cache, for the minions the
 * caller may run `grains.items` on; `GET /minions?grains=..&offset=..&limit=..` is the light,
 * paged listing of minion-listing.ts) and `POST /minions` (lowstate run as `local_async`, 202).
 */
import type { FastifyInstance } from 'fastify';
import { listKeys, readMinionData } from '../../../kernel/services.js';
import { authCheck } from '../auth/acl.js';
import { toLowstate } from '../body.js';
import { type NetapiContext, requireIdentity, send, sessionCookie } from '../context.js';
import { NETAPI_ERR_FORBIDDEN } from '../errors.js';
import { LightGrainsMemo } from '../light-grains.js';
import { targetResolver } from '../local-call.js';
import { requireMinionId } from '../minion-id.js';
import { type ListingQuery, listingQuery, pageOf } from '../minion-listing.js';
import { execLowstate } from './root.js';

export function minionRoutes(app: FastifyInstance, ctx: NetapiContext): void {
  const light = new LightGrainsMemo(ctx.config.cachedir);
  const getMinions = async (mid: string | undefined, listing?: ListingQuery) => {
    const { minions } = await listKeys(ctx.config.pki_dir);
    const all = (mid === undefined ? minions : minions.filter((m) => m === mid)).sort();
    const ids = listing ? pageOf(all, listing) : all;
    const out: Record<string, unknown> = {};
    await Promise.all(
      ids.map(async (id) => {
        if (listing?.grains) {
          const picked = await light.get(id, listing.grains);
          if (picked) out[id] = picked;
          return;
        }
        const data = await readMinionData(ctx.config.cachedir, id);
        if (data?.grains) out[id] = data.grains;
      }),
    );
    const sorted: Record<string, unknown> = {};
    for (const id of Object.keys(out).sort()) sorted[id] = out[id];
    return { data: sorted, total: all.length };
  };

  const handler = async (
    mid: string | undefined,
    req: Parameters<typeof requireIdentity>[1],
    paged = false,
  ) => {
    const who = await requireIdentity(ctx, req);
    if (mid !== undefined) requireMinionId(mid);
    // read after the token: a caller without one learns nothing from a bad query
    const listing = paged ? listingQuery(req.query) : undefined;
    const ok = await authCheck(
      who.authList,
      'grains.items',
      [],
      mid ?? '*',
      'glob',
      targetResolver(ctx.config),
    );
    if (!ok) throw new NETAPI_ERR_FORBIDDEN(`user ${who.user} may not run grains.items on ${mid ?? '*'}`);
    return { who, listing, ...(await getMinions(mid, listing)) };
  };

  app.get('/minions', async (req, reply) => {
    const { who, data, total, listing } = await handler(undefined, req, true);
    reply.header('Cache-Control', 'private').header('Set-Cookie', sessionCookie(who.token));
    if (!listing) return send(req, reply, 200, { return: [data] });
    const page = { offset: listing.offset, limit: listing.limit ?? null, total };
    return send(req, reply, 200, { return: [data], _page: page });
  });

  app.get<{ Params: { mid: string } }>('/minions/:mid', async (req, reply) => {
    const { who, data } = await handler(req.params.mid, req);
    reply.header('Cache-Control', 'private').header('Set-Cookie', sessionCookie(who.token));
    return send(req, reply, 200, { return: [data] });
  });

  app.post('/minions', async (req, reply) => {
    const who = await requireIdentity(ctx, req);
    const chunks = toLowstate(req.body).map((c) => ({ ...c, client: 'local_async' }));
    const ret = await execLowstate(ctx, chunks, async () => who);
    const jobs = ret
      .map((r) => (r as { jid?: unknown }).jid)
      .filter((j): j is string => typeof j === 'string')
      .map((jid) => ({ href: `/jobs/${jid}` }));
    reply.header('Cache-Control', 'private').header('Set-Cookie', sessionCookie(who.token));
    return send(req, reply, 202, { return: ret, _links: { jobs } });
  });
}
