/**
 * How Salt's `zabbix` module talks to a Zabbix frontend (`_query`, `_login`, `_frontend_url`):
 * one JSON-RPC 2.0 POST per call through Salt's `http.query`, a `user.login` before every
 * function, the session token sent as `auth` (not with `user.login` and `apiinfo.version`).
 * The connection comes from the `_connection_user`, `_connection_password` and `_connection_url`
 * keywords, else the `zabbix.user`/`zabbix.password`/`zabbix.url` options (or `zabbix:*` keys),
 * else a frontend on this host. Failures are Salt's `SaltException` texts; the password and the
 * session token never reach the log.
 */
import { hostname } from 'node:os';
import type { ExecContext } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';
import { pyShortTypeName } from './_py-type-name.js';
import { query } from './http.js';

/** Salt's `SaltException`, as salt-call reports it. */
export const saltException = (message: string): Error =>
  pythonError('salt.exceptions.SaltException', message);

/** A resolved connection: where the frontend is and the session token `user.login` gave. */
export interface ZabbixConn {
  url: string;
  auth: unknown;
}

/** A call's keywords: connection keywords and any others (merged into the request's params). */
export type Kwargs = Record<string, unknown>;

const UNAUTHENTICATED = new Set(['user.login', 'apiinfo.version']);

/** Python's `str()` of a KeyError's argument list: `'user'`, or nothing for a bare KeyError. */
const keyErrorText = (key: string | null) => (key === null ? '' : `'${key}'`);

/**
 * One JSON-RPC call: Salt's `_query`. The decoded response (`{jsonrpc, result, id}`); an HTTP or
 * transport failure and an API error are SaltExceptions.
 */
export async function zabbixQuery(
  ctx: ExecContext,
  method: string,
  params: unknown,
  url: string,
  auth: unknown = null,
): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = { jsonrpc: '2.0', id: 0, method, params };
  if (!UNAUTHENTICATED.has(method)) data.auth = auth;
  ctx.log.info(`Zabbix API query: ${method} at ${url}`);
  let result: Record<string, unknown>;
  try {
    result = await query(ctx, url, {
      method: 'POST',
      data: JSON.stringify(data),
      header_dict: { 'Content-type': 'application/json' },
      decode_type: 'json',
      decode: true,
      status: true,
      headers: true,
    });
  } catch (err) {
    if (err instanceof SyntaxError)
      throw saltException(`URL or HTTP headers are probably not correct! (${err.message})`);
    throw err;
  }
  if ('error' in result) throw saltException(`Zabbix API: Status: ${result.status} (${result.error})`);
  const ret = (result.dict ?? {}) as Record<string, unknown>;
  if (ret && typeof ret === 'object' && 'error' in ret) {
    const e = (ret.error ?? {}) as Record<string, unknown>;
    throw saltException(`Zabbix API: ${e.message} (${e.data})`);
  }
  return ret;
}

/**
 * Salt's `_frontend_url`: `http://<hostname>/zabbix/api_jsonrpc.php` unless a request to it
 * succeeds outright or fails with a text that starts with `412: Precondition Failed` (false).
 */
async function frontendUrl(ctx: ExecContext): Promise<string | false> {
  const url = `http://${hostname()}/zabbix/api_jsonrpc.php`;
  const res = await query(ctx, url, {});
  const error = res.error;
  if (typeof error !== 'string') return false;
  return error.startsWith('412: Precondition Failed') ? false : url;
}

const CONN_KEYS = [
  ['_connection_user', 'user'],
  ['_connection_password', 'password'],
  ['_connection_url', 'url'],
] as const;

async function configValue(ctx: ExecContext, key: string): Promise<unknown> {
  const dotted = await ctx.call('config.get', [`zabbix.${key}`, null]);
  if (dotted !== null && dotted !== undefined && dotted !== '' && dotted !== false) return dotted;
  return ctx.call('config.get', [`zabbix:${key}`, null]);
}

const truthyText = (v: unknown) => v !== null && v !== undefined && v !== false && v !== '' && v !== 0;

/** Salt's `_login`: the connection settings, then `user.login`; its token as `auth`. */
export async function zabbixLogin(ctx: ExecContext, kwargs: Kwargs): Promise<ZabbixConn> {
  const conn: Partial<Record<'user' | 'password' | 'url', unknown>> = {};
  for (const [kw, key] of CONN_KEYS) {
    if (kw in kwargs) conn[key] = kwargs[kw];
    else {
      const v = await configValue(ctx, key);
      if (v !== null && v !== undefined) conn[key] = v;
    }
  }
  if (!('url' in conn)) conn.url = await frontendUrl(ctx);
  for (const key of ['user', 'password', 'url'] as const) {
    if (!(key in conn)) throw saltException(`URL is probably not correct! (${keyErrorText(key)})`);
    if (!truthyText(conn[key])) throw saltException(`URL is probably not correct! (${keyErrorText(null)})`);
  }
  const url = String(conn.url);
  const ret = await zabbixQuery(ctx, 'user.login', { user: conn.user, password: conn.password }, url);
  if (!('result' in ret)) throw saltException(`URL is probably not correct! (${keyErrorText('result')})`);
  return { url, auth: ret.result };
}

/**
 * Salt's `_params_extend`: the call's keywords that do not start with `_` added to `params`
 * (its own keys win); with `ignoreName`, `name` dropped and `firstname` or `visible_name`
 * renamed to it.
 */
export function paramsExtend(
  params: Record<string, unknown>,
  kwargs: Kwargs,
  ignoreName = false,
): Record<string, unknown> {
  for (const [k, v] of Object.entries(kwargs)) if (!k.startsWith('_') && !(k in params)) params[k] = v;
  if (ignoreName) {
    delete params.name;
    if ('firstname' in params) {
      const v = params.firstname;
      delete params.firstname;
      params.name = v;
    } else if ('visible_name' in params) {
      const v = params.visible_name;
      delete params.visible_name;
      params.name = v;
    }
  }
  return params;
}

/** Salt's `_map_to_list_of_dicts`: each element as `{key: element}`. */
export const mapToListOfDicts = (source: unknown, key: string): Record<string, unknown>[] =>
  iterate(source).map((e) => ({ [key]: e }));

/** Python's iteration of a value: a list's items, a string's characters, a dict's keys. */
export function iterate(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  if (v && typeof v === 'object') return Object.keys(v);
  throw pythonError('TypeError', `'${pyShortTypeName(v)}' object is not iterable`);
}

/** A value as a list: itself when it is one, else a list of it. */
export const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

/** Salt's functions catch a KeyError and return what they hold: this marks one. */
export class KeyMissing extends Error {
  constructor(key: string) {
    super(`'${key}'`);
    this.name = 'KeyError';
  }
}

/** `obj[key]` of a dict, or the KeyError Salt's functions catch. */
export function field(obj: unknown, key: string): unknown {
  if (obj && typeof obj === 'object' && !Array.isArray(obj) && key in obj)
    return (obj as Record<string, unknown>)[key];
  throw new KeyMissing(key);
}

/** A logged-in call: Salt's `conn_args`, and `ret`, the last answer (False before any). */
export class Session {
  ret: unknown = false;
  constructor(
    readonly ctx: ExecContext,
    readonly conn: ZabbixConn,
  ) {}
  /** One API call with the session's token; its answer is kept as `ret`. */
  async query(method: string, params: unknown): Promise<Record<string, unknown>> {
    const r = await zabbixQuery(this.ctx, method, params, this.conn.url, this.conn.auth);
    this.ret = r;
    return r;
  }
  /** The call's `result` (Salt's `ret["result"]`). */
  async result(method: string, params: unknown): Promise<unknown> {
    return field(await this.query(method, params), 'result');
  }
}

/**
 * The body every function shares: log in, run `body`, and where Salt's `except KeyError`
 * would, answer the last API answer (False when there was none).
 */
export async function withLogin<T>(
  ctx: ExecContext,
  kwargs: Kwargs,
  body: (s: Session) => Promise<T>,
): Promise<T | unknown> {
  const s = new Session(ctx, await zabbixLogin(ctx, kwargs));
  try {
    return await body(s);
  } catch (err) {
    if (err instanceof KeyMissing) return s.ret;
    throw err;
  }
}

/** Salt's `apiinfo_version`: the API's version string (a login first, as Salt does). */
export const apiVersion = (ctx: ExecContext, kwargs: Kwargs): Promise<unknown> =>
  withLogin(ctx, kwargs, (s) => s.result('apiinfo.version', {}));

/** Compares dotted versions numerically (Salt's `Version`): -1, 0 or 1. */
export function versionCmp(a: unknown, b: string): number {
  const pa = String(a)
    .split('.')
    .map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** A value, or False when Python finds it false (Salt's `ret["result"] if ret["result"] else False`). */
export const orFalse = (v: unknown): unknown => (pyTruthy(v) ? v : false);

/** Log in, call `method` with `params`, answer `result[key]` (Salt's create/update/delete shape). */
export const resultKey = (ctx: ExecContext, kw: Kwargs, method: string, params: unknown, key: string) =>
  withLogin(ctx, kw, async (s) => field(await s.result(method, params), key));

/** Log in, call `<object>.get` with output extend and nothing else (Salt's `*_list`). */
export const listAll = (ctx: ExecContext, kw: Kwargs, method: string) =>
  withLogin(ctx, kw, (s) => s.result(method, { output: 'extend' }));
