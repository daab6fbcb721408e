/**
 * The netapi HTTP server (Fastify): salt-api's routes, body parsers, CORS and `Allow`
 * headers, a rate limit per valid token (else per client address), time limits on slow
 * requests and connection caps (connection-guard.ts), a body size limit, and one JSON error shape
 * `{status, return, error: {code, message}}` for every failure. `startNetapi` opens the master
 * link and listens; the master child and `salt-api` both use it.
 */
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type ResolvedMasterConfig, SALT_ERR_BUS_ADDRESS_IN_USE, SaltError } from '../../kernel/index.js';
import type { Logger } from '../../kernel/util.js';
import { BUILTIN_EAUTH } from './auth/builtin-eauth.js';
import type { NetapiEauthDef } from './auth/eauth-kind.js';
import { TokenStore } from './auth/token-store.js';
import { BODY_TYPES, parseBody } from './body.js';
import { clientAddress } from './client-address.js';
import { type NetapiOptions, netapiOptions } from './config.js';
import { ConnectionGuard } from './connection-guard.js';
import { type NetapiContext, requestToken, requireIdentity, send } from './context.js';
import { corsHeaders } from './cors.js';
import {
  NETAPI_ERR_BODY_TOO_LARGE,
  NETAPI_ERR_BUSY,
  NETAPI_ERR_MEDIA_TYPE,
  NETAPI_ERR_RATE_LIMITED,
  statusOf,
} from './errors.js';
import { LoginGuard } from './login-guard.js';
import { MasterLink } from './master-client.js';
import { netapiMasterOptions } from './options.js';
import { RateLimiter } from './rate-limit.js';
import type { NetapiRouteApi, NetapiRouteDef } from './route-kind.js';
import { appRoutes } from './routes/app.js';
import { attachWebSocket, eventRoutes } from './routes/events.js';
import { hookRoutes } from './routes/hook.js';
import { jobRoutes } from './routes/jobs.js';
import { keyRoutes } from './routes/keys.js';
import { loginRoutes } from './routes/login.js';
import { minionRoutes } from './routes/minions.js';
import { rootRoutes } from './routes/root.js';
import { statsRoutes } from './routes/stats.js';
import { StreamSessions } from './stream-sessions.js';

function errorBody(status: number, code: string, message: string) {
  return { status, return: message, error: { code, message } };
}

/** Maps Fastify's own errors (body limit, media type, bad JSON) to netapi's. */
function normalizeError(err: unknown, limit: number): { status: number; code: string; message: string } {
  if (err instanceof SaltError) return { status: statusOf(err), code: err.code, message: err.message };
  const e = err as { code?: string; statusCode?: number; message?: string };
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const x = new NETAPI_ERR_BODY_TOO_LARGE(limit);
    return { status: 413, code: x.code, message: x.message };
  }
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const x = new NETAPI_ERR_MEDIA_TYPE('unknown');
    return { status: 415, code: x.code, message: x.message };
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500)
    return {
      status: e.statusCode,
      code: e.code ?? 'NETAPI_ERR_BAD_BODY',
      message: e.message ?? 'bad request',
    };
  return {
    status: 500,
    code: 'NETAPI_ERR_INTERNAL',
    message: 'internal server error (see the salt-api log)',
  };
}

/** Builds the app (not listening), with the REST routes plugins added (`netapi.routes`). */
export async function buildNetapi(
  ctx: NetapiContext,
  extraRoutes: readonly NetapiRouteDef[] = [],
): Promise<FastifyInstance> {
  const opts = ctx.opts;
  // slow clients: a request must arrive whole within request_timeout (its headers within
  // headers_timeout), checked every second; streams (/events, /ws) are past their request
  const requestTimeout = opts.request_timeout * 1000;
  const timeouts = {
    headersTimeout: Math.min(opts.headers_timeout * 1000, requestTimeout),
    connectionsCheckingInterval: 1000,
  };
  const https =
    !opts.disable_ssl && opts.ssl_crt && opts.ssl_key
      ? {
          https: {
            cert: readFileSync(opts.ssl_crt),
            key: readFileSync(opts.ssl_key),
            handshakeTimeout: timeouts.headersTimeout,
            ...timeouts,
          },
        }
      : { http: timeouts };
  const app = Fastify({
    ...https,
    bodyLimit: opts.max_request_body_size,
    logger: false,
    trustProxy: false,
    return503OnClosing: true,
    // close() must not wait for SSE streams (they never end by themselves)
    forceCloseConnections: true,
    keepAliveTimeout: 10_000,
    connectionTimeout: 0,
    requestTimeout,
    routerOptions: { maxParamLength: 256 },
  }) as unknown as FastifyInstance;

  app.server.on('connection', (socket: Socket) => void ctx.connections.admit(socket));
  app.removeAllContentTypeParsers();
  const parser = (
    req: FastifyRequest,
    body: string | Buffer,
    done: (err: Error | null, body?: unknown) => void,
  ) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    ctx.rawBodies.set(req, text);
    try {
      done(null, parseBody(req.headers['content-type'], text));
    } catch (err) {
      done(err as Error);
    }
  };
  app.addContentTypeParser(BODY_TYPES, { parseAs: 'string' }, parser);
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    const type = req.headers['content-type'];
    if (type && String(body).length > 0) {
      done(new NETAPI_ERR_MEDIA_TYPE(type.split(';')[0] ?? type));
      return;
    }
    parser(req, body, done);
  });

  const limiter = new RateLimiter(opts.rate_limit, opts.rate_limit_burst);
  app.addHook('onRequest', async (req, reply) => {
    ctx.stats.requests++;
    const { Vary, ...cors } = corsHeaders(opts, req.headers.origin);
    for (const [k, v] of Object.entries(cors)) reply.header(k, v);
    reply.header('Allow', 'GET, HEAD, POST');
    reply.header('Vary', Vary ? `${Vary}, Accept-Encoding` : 'Accept-Encoding');
    // a token counts as a bucket of its own only when it is one: a made-up X-Auth-Token per
    // request must not buy a fresh bucket (issue 27 item 13)
    const token = requestToken(req, true);
    const valid = token !== undefined && (await ctx.tokens.get(token)) !== undefined;
    if (valid) ctx.connections.authenticated(req.socket);
    else if (ctx.connections.onProbation(req.socket)) {
      reply.header('Connection', 'close');
      throw new NETAPI_ERR_BUSY({ details: { retryAfter: 1 } });
    }
    const wait = limiter.take(valid ? `token:${token}` : clientAddress(req.ip));
    if (wait > 0) throw new NETAPI_ERR_RATE_LIMITED(wait, { details: { retryAfter: wait } });
  });

  app.setErrorHandler((err, req, reply) => {
    const n = normalizeError(err, opts.max_request_body_size);
    ctx.stats.errors++;
    const retryAfter = (err as { details?: { retryAfter?: unknown } }).details?.retryAfter;
    if ((n.status === 429 || n.status === 503) && typeof retryAfter === 'number')
      reply.header('Retry-After', String(retryAfter));
    if (n.status >= 500) ctx.log.error({ err, url: req.url }, 'netapi: request failed');
    else ctx.log.info({ url: req.url, code: n.code, status: n.status }, n.message);
    return send(req, reply, n.status, errorBody(n.status, n.code, n.message));
  });
  app.setNotFoundHandler((req, reply) =>
    send(
      req,
      reply,
      404,
      errorBody(404, 'NETAPI_ERR_NOT_FOUND', `no such resource: ${req.method} ${req.url.split('?')[0]}`),
    ),
  );
  app.options('*', async (_req, reply) => {
    if (reply.hasHeader('Access-Control-Allow-Origin')) {
      reply.header('Access-Control-Allow-Methods', 'GET, POST');
      reply.header('Access-Control-Allow-Headers', 'Content-Type, X-Auth-Token, X-Requested-With');
    }
    return reply.code(200).send();
  });

  appRoutes(app, ctx);
  rootRoutes(app, ctx);
  loginRoutes(app, ctx);
  minionRoutes(app, ctx);
  jobRoutes(app, ctx);
  keyRoutes(app, ctx);
  eventRoutes(app, ctx);
  hookRoutes(app, ctx);
  statsRoutes(app, ctx);
  attachWebSocket(app, ctx);
  const routeApi: NetapiRouteApi = {
    config: ctx.config,
    log: ctx.log,
    authenticate: async (req) => {
      const { user, eauth, groups } = await requireIdentity(ctx, req);
      return { user, eauth, groups };
    },
  };
  for (const def of extraRoutes) {
    await app.register(async (scoped) => def.routes(scoped, routeApi));
    ctx.log.info({ routes: def.name }, 'netapi: routes added by a plugin');
  }
  return app;
}

export interface NetapiHandle {
  readonly app: FastifyInstance;
  readonly opts: NetapiOptions;
  /** The port it listens on (the configured one, or the one the OS chose for port 0). */
  readonly port: number;
  close(): Promise<void>;
}

/** Opens the master link and serves the REST API, with the routes plugins added, until closed. */
export async function startNetapi(
  config: ResolvedMasterConfig,
  log: Logger,
  extraRoutes: readonly NetapiRouteDef[] = [],
  eauth: readonly NetapiEauthDef[] = BUILTIN_EAUTH,
): Promise<NetapiHandle> {
  const opts = netapiOptions(netapiMasterOptions.read(config));
  const link = new MasterLink(config, log);
  await link.start();
  const tokens = new TokenStore(`${config.cachedir}/tokens`);
  const ctx: NetapiContext = {
    config,
    opts,
    link,
    tokens,
    eauth,
    streams: new StreamSessions(tokens),
    connections: new ConnectionGuard({
      maxConnections: opts.max_connections,
      reserve: opts.connection_reserve,
      perAddress: opts.max_connections_per_address,
    }),
    logins: new LoginGuard({
      freeFailures: opts.login_free_failures,
      maxDelaySeconds: opts.login_backoff_max,
      windowSeconds: opts.login_failure_window,
    }),
    log,
    stats: { started: Date.now(), requests: 0, errors: 0, sseClients: 0, sseDropped: 0, wsClients: 0 },
    rawBodies: new WeakMap(),
  };
  const app = await buildNetapi(ctx, extraRoutes);
  try {
    await app.listen({ port: opts.port, host: opts.host, backlog: opts.queue_size });
  } catch (err) {
    await link.close();
    // a taken port reads as the master's own sockets do, with the same stable code
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    throw new SALT_ERR_BUS_ADDRESS_IN_USE(`${opts.host}:${opts.port}`, { cause: err });
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const prune = setInterval(() => void ctx.tokens.prune().catch(() => undefined), 600_000);
  prune.unref();
  log.info({ port, host: opts.host, tls: Boolean(https(opts)) }, 'netapi listening');
  return {
    app,
    opts,
    port,
    async close() {
      clearInterval(prune);
      ctx.streams.stop();
      await app.close();
      await link.close();
    },
  };
}

function https(opts: NetapiOptions): boolean {
  return !opts.disable_ssl && Boolean(opts.ssl_crt && opts.ssl_key);
}
