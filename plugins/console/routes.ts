/**
 * The console's routes on the REST API: `GET /console` (the page), `GET /console/<file>` (the
 * bundle's script and style) and `GET /console/config.json` (what the login form needs before
 * anyone logs in: the names of the configured eauth back ends, in config order). Everything
 * else the console does goes through the API's own endpoints with the user's token.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NetapiRouteDef } from '../netapi/index.js';
import { type ConsoleAsset, loadAssets } from './assets.js';
import { CONSOLE_HEADERS } from './headers.js';

function acceptsGzip(req: FastifyRequest): boolean {
  const h = req.headers['accept-encoding'];
  return typeof h === 'string' && /\bgzip\b/.test(h);
}

function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: ConsoleAsset): FastifyReply {
  reply.headers(CONSOLE_HEADERS).type(asset.type);
  if (acceptsGzip(req)) return reply.header('Content-Encoding', 'gzip').send(asset.gzip);
  return reply.send(asset.body);
}

/** The eauth back ends the master config names, in its order. */
export function eauthNames(externalAuth: unknown): string[] {
  if (!externalAuth || typeof externalAuth !== 'object' || Array.isArray(externalAuth)) return [];
  return Object.keys(externalAuth);
}

/** The console's `netapi.routes` unit; `assetDir` overrides where the bundle is read from. */
export function consoleRoutes(assetDir?: string): NetapiRouteDef {
  return {
    name: 'tsalt:console',
    routes(app: FastifyInstance, netapi) {
      const assets = loadAssets(assetDir);
      if (!assets.has('index.html'))
        netapi.log.warn('console: the front end is not built (npm run build); /console answers 404');
      const page = async (req: FastifyRequest, reply: FastifyReply) => {
        const index = assets.get('index.html');
        return index ? sendAsset(req, reply, index) : reply.callNotFound();
      };
      app.get('/console', page);
      app.get('/console/', page);
      app.get('/console/config.json', async (_req, reply) => {
        reply.headers(CONSOLE_HEADERS);
        return reply.type('application/json').send({ eauth: eauthNames(netapi.config.external_auth) });
      });
      app.get<{ Params: { file: string } }>('/console/:file', async (req, reply) => {
        const asset = assets.get(req.params.file);
        return asset ? sendAsset(req, reply, asset) : reply.callNotFound();
      });
    },
  };
}
