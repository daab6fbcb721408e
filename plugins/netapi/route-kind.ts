/**
 * The `netapi.routes` plugin kind: REST routes any plugin adds to the netapi, each a Fastify
 * plugin registered on the API's own app (its body parsers, rate limit, CORS and error format
 * included). `api.kinds.register('netapi.routes', { name, routes(app, netapi) })`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ResolvedMasterConfig } from '../../kernel/index.js';

/** Who called, from the request's salt-api token (`X-Auth-Token` or the session cookie). */
export interface NetapiCaller {
  readonly user: string;
  readonly eauth: string;
  readonly groups: readonly string[];
}

/** What a route plugin gets besides the app. */
export interface NetapiRouteApi {
  readonly config: ResolvedMasterConfig;
  readonly log: Logger;
  /** The caller of `req`; rejects with the API's 401 when the request carries no valid token. */
  authenticate(req: FastifyRequest): Promise<NetapiCaller>;
}

/** REST routes from a plugin. */
export interface NetapiRouteDef {
  /** Unique among the routes plugins (the plugin's name is a good one). */
  readonly name: string;
  /** Adds the routes to the API's app. A route is public unless it calls `netapi.authenticate`. */
  routes(app: FastifyInstance, netapi: NetapiRouteApi): void | Promise<void>;
}

declare module '../../kernel/kinds.js' {
  interface PluginKinds {
    'netapi.routes': NetapiRouteDef;
  }
}
