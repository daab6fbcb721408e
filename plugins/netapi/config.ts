/**
 * netapi's options: Salt's `rest_cherrypy` (or `rest_tornado`) block, validated by the
 * plugin's own schema, plus the few tsalt adds (rate limit, SSE buffer, webhook secret).
 */
import { z } from 'zod';
import { NETAPI_ERR_OPTIONS } from './errors.js';

/** Every client salt-api 3006 knows, in the order `GET /` lists them. */
export const ALL_CLIENTS = [
  'local',
  'local_async',
  'local_batch',
  'local_subset',
  'runner',
  'runner_async',
  'ssh',
  'wheel',
  'wheel_async',
] as const;

const port = z.coerce.number().int().min(0).max(65535);
const originList = z.union([z.string(), z.array(z.string())]);

export const netapiOptionsSchema = z.object({
  port: port.default(8000),
  host: z.string().default('0.0.0.0'),
  ssl_crt: z.string().nullable().default(null),
  ssl_key: z.string().nullable().default(null),
  disable_ssl: z.boolean().default(false),
  debug: z.boolean().default(false),
  /** Origins allowed by CORS (Salt's rest_tornado option): one, a list, globs, or `*`; unset: none. */
  cors_origin: originList.nullable().default(null),
  /** tsalt: send `Access-Control-Allow-Credentials: true` to the origins `cors_origin` names (never to `*`). */
  cors_allow_credentials: z.boolean().default(false),
  webhook_disable_auth: z.boolean().default(false),
  webhook_url: z.string().default('/hook'),
  /** tsalt: a secret webhook callers send in `X-Hook-Secret` (or sign the body with, GitHub style). */
  webhook_secret: z.string().nullable().default(null),
  app: z.string().nullable().default(null),
  app_path: z.string().default('/app'),
  static: z.string().nullable().default(null),
  static_path: z.string().default('/static'),
  /** tsalt: serve the web console at `/console` (plugins/console reads it; checked here with the rest). */
  console: z.boolean().default(true),
  /** Largest request body accepted, bytes (Salt's `max_request_body_size`). */
  max_request_body_size: z.coerce.number().int().min(1).default(1_048_576),
  /** tsalt: requests per second allowed per token (and per client address without one); 0 disables. */
  rate_limit: z.coerce.number().min(0).default(100),
  /** tsalt: burst allowed above the rate. */
  rate_limit_burst: z.coerce.number().min(1).default(200),
  /** tsalt: failed logins per client address and per username before back-off starts. */
  login_free_failures: z.coerce.number().int().min(0).default(5),
  /** tsalt: the longest back-off after failed logins, seconds (it doubles from 1 s). */
  login_backoff_max: z.coerce.number().min(1).default(60),
  /** tsalt: seconds after its last failed login that an address's or username's count is forgotten. */
  login_failure_window: z.coerce.number().min(1).default(900),
  /** tsalt: seconds a client has to send a whole request, headers and body (408 past it). */
  request_timeout: z.coerce.number().min(1).default(30),
  /** tsalt: seconds a client has to send a request's headers (at most `request_timeout`). */
  headers_timeout: z.coerce.number().min(1).default(10),
  /**
   * Salt's `queue_size` (its docs call it `socket_queue_size`): the listen backlog. Salt's default
   * is 30; tsalt's is 1,024, so a burst of connections waits instead of overflowing the queue
   * (the kernel caps it at `net.core.somaxconn`).
   */
  queue_size: z.coerce.number().int().min(1).default(1024),
  /** tsalt: most open connections (keep it well under the process's descriptor limit). */
  max_connections: z.coerce.number().int().min(2).default(768),
  /** tsalt: connections kept for requests with a valid token once unauthenticated ones fill the rest. */
  connection_reserve: z.coerce.number().int().min(0).default(128),
  /** tsalt: most connections one client address (IPv6: one /64) may hold before one of them shows a token. */
  max_connections_per_address: z.coerce.number().int().min(1).default(64),
  /** tsalt: bytes an SSE/WebSocket subscriber may leave unread for over 1 s (4x at once) before it is cut off. */
  sse_max_buffer: z.coerce
    .number()
    .int()
    .min(1024)
    .default(4 * 1024 * 1024),
  /** tsalt: most concurrent SSE subscribers. */
  sse_max_clients: z.coerce.number().int().min(1).default(10_000),
  /** tsalt: seconds a synchronous `local`/`runner` call may wait at most. */
  sync_timeout_max: z.coerce.number().min(1).default(3600),
});

export type NetapiOptions = z.output<typeof netapiOptionsSchema>;

export interface NetapiMasterView {
  rest_cherrypy?: Readonly<Record<string, unknown>> | null;
  rest_tornado?: Readonly<Record<string, unknown>> | null;
}

/** Whether the master config asks for the REST API. */
export function netapiConfigured(config: NetapiMasterView): boolean {
  return Boolean(config.rest_cherrypy ?? config.rest_tornado);
}

/**
 * The validated options of the configured block (`rest_cherrypy` wins over `rest_tornado`).
 * @throws NETAPI_ERR_OPTIONS naming each bad key
 */
export function netapiOptions(config: NetapiMasterView): NetapiOptions {
  const name = config.rest_cherrypy ? 'rest_cherrypy' : 'rest_tornado';
  const raw = (config.rest_cherrypy ?? config.rest_tornado ?? {}) as Record<string, unknown>;
  const parsed = netapiOptionsSchema.safeParse(raw);
  if (!parsed.success) throw new NETAPI_ERR_OPTIONS(name, z.prettifyError(parsed.error));
  const opts = parsed.data;
  if (!opts.disable_ssl && (!opts.ssl_crt || !opts.ssl_key)) {
    throw new NETAPI_ERR_OPTIONS(
      name,
      'TLS needs both ssl_crt and ssl_key; set them, or set disable_ssl: True to serve plain HTTP',
    );
  }
  if (opts.connection_reserve >= opts.max_connections) {
    throw new NETAPI_ERR_OPTIONS(
      name,
      `connection_reserve (${opts.connection_reserve}) must be smaller than max_connections (${opts.max_connections})`,
    );
  }
  if (!opts.webhook_url.startsWith('/')) opts.webhook_url = `/${opts.webhook_url}`;
  return opts;
}
