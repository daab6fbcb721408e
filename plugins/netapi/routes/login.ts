/**
 * `GET /login` (how to log in), `POST /login` (a token and session cookie), `POST /logout`
 * (revokes the token) and `POST /token` (a token without a session, as salt-api's /token).
 */
import type { FastifyInstance } from 'fastify';
import { permsForLogin } from '../auth/acl.js';
import { toMapping } from '../body.js';
import { clientAddress } from '../client-address.js';
import { login, type NetapiContext, requestToken, send, sessionCookie } from '../context.js';

export function loginRoutes(app: FastifyInstance, ctx: NetapiContext): void {
  app.get('/login', async (req, reply) => {
    reply.header('WWW-Authenticate', 'Session');
    return send(req, reply, 200, { status: 200, return: 'Please log in' });
  });

  app.post('/login', async (req, reply) => {
    const { who, token } = await login(ctx, toMapping(req.body), clientAddress(req.ip));
    reply.header('X-Auth-Token', token.token);
    reply.header('Set-Cookie', sessionCookie(token.token));
    return send(req, reply, 200, {
      return: [
        {
          token: token.token,
          expire: token.expire,
          start: token.start,
          user: who.user,
          eauth: who.eauth,
          perms: permsForLogin(who.authList),
        },
      ],
    });
  });

  app.post('/logout', async (req, reply) => {
    const token = requestToken(req);
    if (token) {
      await ctx.tokens.remove(token);
      ctx.streams.revoke(token);
    }
    reply.header('Cache-Control', 'private');
    reply.header('Set-Cookie', sessionCookie(undefined));
    return send(req, reply, 200, { return: 'Your token has been cleared' });
  });

  app.post('/token', async (req, reply) => {
    const { token } = await login(ctx, toMapping(req.body), clientAddress(req.ip));
    return send(req, reply, 200, [
      { token: token.token, start: token.start, expire: token.expire, name: token.name, eauth: token.eauth },
    ]);
  });
}
