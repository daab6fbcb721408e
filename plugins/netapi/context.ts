/**
 * What every route shares: options, the master link, the token store, and the helpers that
 * turn a request into an authenticated {@link Identity} and an answer into salt-api's body.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringify as toYaml } from 'yaml';
import type { ResolvedMasterConfig } from '../../kernel/index.js';
import type { Logger } from '../../kernel/util.js';
import { fillAuthList } from './auth/acl.js';
import { authenticate } from './auth/eauth.js';
import type { NetapiEauthDef } from './auth/eauth-kind.js';
import { allowCustomExpire, type TokenData, type TokenStore } from './auth/token-store.js';
import type { Chunk } from './body.js';
import type { NetapiOptions } from './config.js';
import type { ConnectionGuard } from './connection-guard.js';
import { cookieValue } from './cookie.js';
import { NETAPI_ERR_LOGIN_THROTTLED, NETAPI_ERR_UNAUTHENTICATED } from './errors.js';
import type { Identity } from './local-call.js';
import type { LoginGuard } from './login-guard.js';
import type { MasterLink } from './master-client.js';
import { pyJson } from './py-json.js';
import type { StreamSessions } from './stream-sessions.js';

export interface NetapiStats {
  started: number;
  requests: number;
  errors: number;
  sseClients: number;
  sseDropped: number;
  wsClients: number;
}

export interface NetapiContext {
  config: ResolvedMasterConfig;
  opts: NetapiOptions;
  link: MasterLink;
  tokens: TokenStore;
  /** The eauth back ends logins are checked with (the `netapi.eauth` kind). */
  eauth: readonly NetapiEauthDef[];
  log: Logger;
  stats: NetapiStats;
  /** Connection caps per client address and in all, with a reserve for authenticated users. */
  connections: ConnectionGuard;
  /** Failed-login back-off per client address and per username. */
  logins: LoginGuard;
  /** The open event streams by token, ended when their token goes. */
  streams: StreamSessions;
  /** Raw request bodies (webhooks fire them verbatim). */
  rawBodies: WeakMap<FastifyRequest, string>;
}

/** Salt's session cookie lifetime (CherryPy `tools.sessions.timeout` 600 minutes). */
export const SESSION_MAX_AGE = 36_000;

/** The value of one cookie of the request (undefined when absent or malformed). */
export function cookie(req: FastifyRequest, name: string): string | undefined {
  return cookieValue(req.headers.cookie, name);
}

/** The token a request carries: `X-Auth-Token`, then the `session_id` cookie, then `?token=`. */
export function requestToken(req: FastifyRequest, allowQuery = false): string | undefined {
  const h = req.headers['x-auth-token'];
  if (typeof h === 'string' && h) return h;
  const c = cookie(req, 'session_id');
  if (c) return c;
  if (allowQuery) {
    const q = req.query as Record<string, unknown> | undefined;
    for (const k of ['token', 'salt_token']) if (typeof q?.[k] === 'string' && q[k]) return q[k] as string;
  }
  return undefined;
}

function providerOf(ctx: NetapiContext, eauth: string): Readonly<Record<string, unknown>> | undefined {
  const p = (ctx.config.external_auth as Readonly<Record<string, Readonly<Record<string, unknown>>>>)[eauth];
  return p && typeof p === 'object' ? p : undefined;
}

/** The identity of a stored token; its ACL is computed from the current config. */
export async function identityFromToken(ctx: NetapiContext, token: unknown): Promise<Identity> {
  const data = await ctx.tokens.get(token);
  if (!data) throw new NETAPI_ERR_UNAUTHENTICATED('No permission -- see authorization schemes');
  const provider = providerOf(ctx, data.eauth);
  if (!provider) throw new NETAPI_ERR_UNAUTHENTICATED('No permission -- see authorization schemes');
  const authList = fillAuthList(provider, data.name, data.groups, ctx.config.permissive_acl === true);
  return { user: data.name, eauth: data.eauth, groups: data.groups, authList, token: data.token };
}

/** The identity of a request's token; 401 without one. */
export async function requireIdentity(
  ctx: NetapiContext,
  req: FastifyRequest,
  allowQuery = false,
): Promise<Identity> {
  const token = requestToken(req, allowQuery);
  if (!token) throw new NETAPI_ERR_UNAUTHENTICATED('No permission -- see authorization schemes');
  return identityFromToken(ctx, token);
}

/**
 * Checks inline credentials (`username`/`password`/`eauth`) sent from `address` (see
 * client-address.ts); 401 when they do not pass, 429 while that address or username is
 * barred after failed logins (`details.retryAfter` seconds).
 */
export async function identityFromCredentials(
  ctx: NetapiContext,
  creds: Chunk,
  address: string,
): Promise<Identity> {
  const user = typeof creds.username === 'string' ? creds.username : JSON.stringify(creds.username ?? null);
  const wait = await ctx.logins.begin(address, user);
  if (wait > 0) {
    ctx.log.warn({ user, address, wait }, 'netapi: login refused: too many failures');
    throw new NETAPI_ERR_LOGIN_THROTTLED(wait, { details: { retryAfter: wait } });
  }
  let res: Awaited<ReturnType<typeof authenticate>> | undefined;
  try {
    res = await authenticate(ctx.config as never, creds.eauth, creds.username, creds.password, {
      log: ctx.log,
      backends: ctx.eauth,
    });
  } finally {
    ctx.logins.end(address, user, res?.ok === true);
  }
  if (!res.ok) {
    ctx.log.warn(
      { user: creds.username, eauth: creds.eauth, address, reason: res.reason },
      'netapi: authentication failed',
    );
    throw new NETAPI_ERR_UNAUTHENTICATED('Could not authenticate using provided credentials');
  }
  return { user: res.user, eauth: res.eauth, groups: res.groups, authList: res.authList };
}

/** Logs in: checks the credentials and stores a new token (custom `token_expire` when allowed). */
export async function login(
  ctx: NetapiContext,
  creds: Chunk,
  address: string,
): Promise<{ who: Identity; token: TokenData }> {
  const who = await identityFromCredentials(ctx, creds, address);
  let ttl = ctx.config.token_expire;
  const asked = Number(creds.token_expire);
  if (
    creds.token_expire !== undefined &&
    Number.isFinite(asked) &&
    asked > 0 &&
    allowCustomExpire(ctx.config.token_expire_user_override, who.eauth, who.user)
  )
    ttl = asked;
  const token = await ctx.tokens.create({ name: who.user, eauth: who.eauth, groups: who.groups }, ttl);
  return { who: { ...who, token: token.token }, token };
}

/** Salt's session cookie for `token` (expired when `token` is undefined). */
export function sessionCookie(token: string | undefined): string {
  if (token === undefined) {
    return `session_id=expired; expires=${new Date(Date.now() - 365 * 86_400_000).toUTCString()}; Path=/`;
  }
  const expires = new Date(Date.now() + SESSION_MAX_AGE * 1000).toUTCString();
  return `session_id=${token}; expires=${expires}; Max-Age=${SESSION_MAX_AGE}; Path=/`;
}

/** Whether the client asked for YAML. */
function wantsYaml(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? '';
  return /\b(application|text)\/(x-)?yaml\b/.test(accept) && !accept.includes('application/json');
}

/** Sends a body as salt-api does: Python-style JSON, or YAML when asked. */
export function send(req: FastifyRequest, reply: FastifyReply, status: number, body: unknown): FastifyReply {
  reply.code(status);
  if (wantsYaml(req)) return reply.type('application/x-yaml').send(toYaml(body));
  return reply.type('application/json').send(pyJson(body));
}
