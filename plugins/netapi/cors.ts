/**
 * CORS as salt-api's rest_cherrypy sends it on every answer (echo the `Origin`, or `*`),
 * restricted to the `cors_origin` list when one is configured.
 */
import type { FastifyRequest } from 'fastify';
import { globToRegExp } from '../../kernel/targeting/glob.js';
import type { NetapiContext } from './context.js';

export function corsHeaders(ctx: Pick<NetapiContext, 'opts'>, req: FastifyRequest): Record<string, string> {
  const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
  const allowed = ctx.opts.cors_origin;
  const base = { 'Access-Control-Expose-Headers': 'GET, POST', 'Access-Control-Allow-Credentials': 'true' };
  if (allowed === null) return { 'Access-Control-Allow-Origin': origin ?? '*', ...base };
  const list = typeof allowed === 'string' ? [allowed] : allowed;
  if (origin && list.some((p) => p === '*' || p === origin || globToRegExp(p).test(origin)))
    return { 'Access-Control-Allow-Origin': origin, ...base, Vary: 'Origin' };
  return {};
}
