/**
 * `GET /` (the client list), `POST /` (lowstate with a session token) and `POST /run`
 * (lowstate carrying its own credentials or token in each chunk).
 */
import type { FastifyInstance } from 'fastify';
import { type Chunk, toLowstate } from '../body.js';
import { clientAddress } from '../client-address.js';
import { runChunk } from '../clients.js';
import { ALL_CLIENTS } from '../config.js';
import {
  identityFromCredentials,
  identityFromToken,
  type NetapiContext,
  requireIdentity,
  send,
  sessionCookie,
} from '../context.js';
import { clientOf, type Identity } from '../local-call.js';
import { netapiMasterOptions } from '../options.js';

/** Runs every chunk in order; the answer lists what each added. */
export async function execLowstate(
  ctx: NetapiContext,
  chunks: Chunk[],
  who: (chunk: Chunk) => Promise<Identity>,
): Promise<unknown[]> {
  const env = { link: ctx.link, config: ctx.config, opts: ctx.opts };
  const enabled = netapiMasterOptions.read(ctx.config).netapi_enable_clients;
  // every chunk is checked (client enabled, caller known) before anything runs
  const plan: { chunk: Chunk; client: string; identity: Identity }[] = [];
  for (const chunk of chunks)
    plan.push({ chunk, client: clientOf(chunk, enabled), identity: await who(chunk) });
  const out: unknown[] = [];
  for (const p of plan) out.push(...(await runChunk(env, p.identity, p.chunk, p.client)));
  return out;
}

export function rootRoutes(app: FastifyInstance, ctx: NetapiContext): void {
  app.get('/', async (req, reply) => send(req, reply, 200, { return: 'Welcome', clients: [...ALL_CLIENTS] }));

  app.post('/', async (req, reply) => {
    const who = await requireIdentity(ctx, req);
    const chunks = toLowstate(req.body);
    const ret = await execLowstate(ctx, chunks, async () => who);
    reply.header('Cache-Control', 'private');
    reply.header('Set-Cookie', sessionCookie(who.token));
    return send(req, reply, 200, { return: ret });
  });

  app.post('/run', async (req, reply) => {
    const chunks = toLowstate(req.body);
    const ret = await execLowstate(ctx, chunks, (chunk) =>
      chunk.token !== undefined && chunk.username === undefined
        ? identityFromToken(ctx, chunk.token)
        : identityFromCredentials(ctx, chunk, clientAddress(req.ip)),
    );
    return send(req, reply, 200, { return: ret });
  });
}
