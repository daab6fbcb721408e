/**
 * `GET /keys` (wheel `key.list_all`), `GET /keys/:mid` (`key.finger`) and `POST /keys`
 * (`key.gen_accept` with credentials in the body, answered as a tarball of the pair).
 */
import type { FastifyInstance } from 'fastify';
import { specCheck } from '../auth/acl.js';
import { toMapping } from '../body.js';
import { clientAddress } from '../client-address.js';
import {
  identityFromCredentials,
  type NetapiContext,
  requireIdentity,
  send,
  sessionCookie,
} from '../context.js';
import { NETAPI_ERR_BAD_LOWSTATE, NETAPI_ERR_FORBIDDEN } from '../errors.js';
import type { Identity } from '../local-call.js';
import { requireMinionId } from '../minion-id.js';
import { tarFiles } from '../tar.js';

function mayWheel(who: Identity, fun: string, arg: unknown[] = []): void {
  if (specCheck(who.authList, fun, { arg }, 'wheel') !== true)
    throw new NETAPI_ERR_FORBIDDEN(`user ${who.user} may not run the wheel function ${fun}`);
}

/**
 * `attachment; filename="..."` for any valid minion id: quotes and backslashes escaped, and
 * beyond ASCII an RFC 6266 `filename*` (a raw character past U+00FF would make Node refuse
 * the header, a 500 after the key was made).
 */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '\\$&');
  const plain = `attachment; filename="${ascii}"`;
  return /^[\x20-\x7e]*$/.test(name) ? plain : `${plain}; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function keyRoutes(app: FastifyInstance, ctx: NetapiContext): void {
  app.get('/keys', async (req, reply) => {
    const who = await requireIdentity(ctx, req);
    mayWheel(who, 'key.list_all');
    const res = await ctx.link.wheel('key.list_all', [], {}, who.user);
    reply.header('Set-Cookie', sessionCookie(who.token));
    return send(req, reply, 200, { return: res.data.return });
  });

  app.get<{ Params: { mid: string } }>('/keys/:mid', async (req, reply) => {
    const who = await requireIdentity(ctx, req);
    const mid = requireMinionId(req.params.mid);
    if (/[*?[\],]/.test(mid))
      throw new NETAPI_ERR_BAD_LOWSTATE(
        `${JSON.stringify(mid)} is a pattern: GET /keys/<id> takes one minion id`,
      );
    mayWheel(who, 'key.finger', [mid]);
    const res = await ctx.link.wheel('key.finger', [], { match: mid }, who.user);
    reply.header('Set-Cookie', sessionCookie(who.token));
    return send(req, reply, 200, { return: res.data.return });
  });

  app.post('/keys', async (req, reply) => {
    const body = toMapping(req.body);
    const who = await identityFromCredentials(ctx, body, clientAddress(req.ip));
    if (body.mid === undefined || body.mid === null || body.mid === '')
      throw new NETAPI_ERR_BAD_LOWSTATE('POST /keys needs "mid", the minion id');
    const mid = requireMinionId(body.mid);
    mayWheel(who, 'key.gen_accept', [mid]);
    const keysize = body.keysize === undefined ? 2048 : Number(body.keysize);
    if (!Number.isInteger(keysize) || keysize < 2048 || keysize > 8192)
      throw new NETAPI_ERR_BAD_LOWSTATE('"keysize" must be an integer from 2048 to 8192');
    const force = body.force === true || body.force === 'True' || body.force === 'true';
    const res = await ctx.link.wheel('key.gen_accept', [], { id_: mid, keysize, force }, who.user);
    const pair = res.data.return as { pub?: string; priv?: string } | undefined;
    if (!pair?.pub || !pair.priv) {
      throw new NETAPI_ERR_BAD_LOWSTATE(
        `minion ${mid} already has an accepted key: pass force=True to replace it`,
      );
    }
    // salt-api's order: the public key, then the private one
    const tar = tarFiles([
      { name: 'minion.pub', content: pair.pub, mode: 0o644 },
      { name: 'minion.pem', content: pair.priv, mode: 0o400 },
    ]);
    return reply
      .code(200)
      .header('Content-Disposition', attachment(`saltkeys-${mid}.tar`))
      .header('Cache-Control', 'no-cache')
      .type('application/x-tar')
      .send(tar);
  });
}
