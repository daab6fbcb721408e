/**
 * `GET /minions[/:mid]` (grains from the master's minion data cache, for the minions the
 * caller may run `grains.items` on) and `POST /minions` (lowstate run as `local_async`, 202).
 */
import type { FastifyInstance } from 'fastify';
import { listKeys, readMinionData } from '../../../kernel/services.js';
import { authCheck } from '../auth/acl.js';
import { toLowstate } from '../body.js';
import { type NetapiContext, requireIdentity, send, sessionCookie } from '../context.js';
import { NETAPI_ERR_FORBIDDEN } from '../errors.js';
import { targetResolver } from '../local-call.js';
import { requireMinionId } from '../minion-id.js';
import { execLowstate } from './root.js';

export function minionRoutes(app: FastifyInstance, ctx: NetapiContext): void {
  const getMinions = async (mid: string | undefined) => {
    const { minions } = await listKeys(ctx.config.pki_dir);
    const ids = mid === undefined ? minions : minions.filter((m) => m === mid);
    const out: Record<string, unknown> = {};
    await Promise.all(
      ids.sort().map(async (id) => {
        const data = await readMinionData(ctx.config.cachedir, id);
        if (data?.grains) out[id] = data.grains;
      }),
    );
    const sorted: Record<string, unknown> = {};
    for (const id of Object.keys(out).sort()) sorted[id] = out[id];
    return sorted;
  };

  const handler = async (mid: string | undefined, req: Parameters<typeof requireIdentity>[1]) => {
    const who = await requireIdentity(ctx, req);
    if (mid !== undefined) requireMinionId(mid);
    const ok = await authCheck(
      who.authList,
      'grains.items',
      [],
      mid ?? '*',
      'glob',
      targetResolver(ctx.config),
    );
    if (!ok) throw new NETAPI_ERR_FORBIDDEN(`user ${who.user} may not run grains.items on ${mid ?? '*'}`);
    return { who, data: await getMinions(mid) };
  };

  app.get('/minions', async (req, reply) => {
    const { who, data } = await handler(undefined, req);
    reply.header('Cache-Control', 'private').header('Set-Cookie', sessionCookie(who.token));
    return send(req, reply, 200, { return: [data] });
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
