/**
 * `POST <webhook_url>/*`: fires the request as an event `salt/netapi/hook/<path>` with
 * `{body (raw), post (parsed), headers}`, as salt-api's Webhook does. Auth: a token unless
 * `webhook_disable_auth`; with `webhook_secret` the caller must also send it in
 * `X-Hook-Secret` or sign the body (`X-Hub-Signature-256: sha256=<hmac>`). Paths are checked
 * segment by segment (no `..`, no odd characters); the per-caller rate limit covers floods.
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { safeEqual } from '../auth/password-hash.js';
import { type NetapiContext, requireIdentity, send } from '../context.js';
import { NETAPI_ERR_BAD_LOWSTATE, NETAPI_ERR_UNAUTHENTICATED } from '../errors.js';

const SEGMENT = /^[A-Za-z0-9_.@:+-]{1,128}$/;

function secretOk(ctx: NetapiContext, req: FastifyRequest, raw: string): boolean {
  const secret = ctx.opts.webhook_secret;
  if (!secret) return true;
  const given = req.headers['x-hook-secret'];
  if (typeof given === 'string' && safeEqual(given, secret)) return true;
  const sig = req.headers['x-hub-signature-256'];
  if (typeof sig === 'string') {
    const want = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
    return safeEqual(sig, want);
  }
  return false;
}

export function hookRoutes(app: FastifyInstance, ctx: NetapiContext): void {
  const base = ctx.opts.webhook_url.replace(/\/+$/, '');
  const handler = async (
    req: FastifyRequest<{ Params: { '*'?: string } }>,
    reply: Parameters<typeof send>[1],
  ) => {
    const raw = ctx.rawBodies.get(req) ?? '';
    if (!ctx.opts.webhook_disable_auth) await requireIdentity(ctx, req);
    if (!secretOk(ctx, req, raw)) throw new NETAPI_ERR_UNAUTHENTICATED('webhook secret missing or wrong');
    const rest = (req.params['*'] ?? '').split('/').filter((s) => s !== '');
    for (const s of rest) {
      if (!SEGMENT.test(s) || s === '.' || s === '..')
        throw new NETAPI_ERR_BAD_LOWSTATE(`invalid webhook path segment ${JSON.stringify(s)}`);
    }
    if (rest.length > 16) throw new NETAPI_ERR_BAD_LOWSTATE('webhook path too deep');
    const tag = ['salt', 'netapi', 'hook', ...rest].join('/');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (k === 'x-auth-token' || k === 'cookie' || k === 'x-hook-secret') continue;
      if (typeof v === 'string')
        headers[k.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase())] = v;
    }
    ctx.link.fire(tag, { body: raw, post: req.body ?? {}, headers });
    return send(req, reply, 200, { success: true });
  };
  app.post(base, handler);
  app.post(`${base}/*`, handler);
}
