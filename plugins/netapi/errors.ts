/**
 * netapi's error codes (own prefix, kernel factory) and the HTTP status each answers with.
 * Every error reaches the client as JSON `{status, return, error: {code, message}}`.
 */
import { createError, type SaltError } from '../../kernel/index.js';

export const NETAPI_ERR_OPTIONS = createError(
  'NETAPI_ERR_OPTIONS',
  (block: string, detail: string) => `invalid ${block} options: ${detail}`,
);
export const NETAPI_ERR_BAD_BODY = createError('NETAPI_ERR_BAD_BODY', (message: string) => message);
export const NETAPI_ERR_MEDIA_TYPE = createError(
  'NETAPI_ERR_MEDIA_TYPE',
  (type: string) =>
    `unsupported Content-Type ${JSON.stringify(type)}: send application/json, application/x-www-form-urlencoded or application/x-yaml`,
);
export const NETAPI_ERR_BODY_TOO_LARGE = createError(
  'NETAPI_ERR_BODY_TOO_LARGE',
  (limit: number) =>
    `request body too large: the limit is ${limit} bytes (rest_cherrypy max_request_body_size)`,
);
export const NETAPI_ERR_BAD_LOWSTATE = createError('NETAPI_ERR_BAD_LOWSTATE', (message: string) => message);
export const NETAPI_ERR_BAD_QUERY = createError('NETAPI_ERR_BAD_QUERY', (message: string) => message);
export const NETAPI_ERR_BAD_MINION_ID = createError(
  'NETAPI_ERR_BAD_MINION_ID',
  (id: string) =>
    `invalid minion id ${JSON.stringify(id)}: a minion id is 1 to 255 characters, without control characters (CR, LF, tab, ...), '/' or '\\', and is not '.' or '..'`,
);
export const NETAPI_ERR_CLIENT_DISABLED = createError(
  'NETAPI_ERR_CLIENT_DISABLED',
  (client: string) =>
    `Client disabled: '${client}'. Add to 'netapi_enable_clients' master config option to enable.`,
);
export const NETAPI_ERR_NOT_SUPPORTED = createError('NETAPI_ERR_NOT_SUPPORTED', (message: string) => message);
export const NETAPI_ERR_UNAUTHENTICATED = createError(
  'NETAPI_ERR_UNAUTHENTICATED',
  (message: string) => message,
);
export const NETAPI_ERR_FORBIDDEN = createError('NETAPI_ERR_FORBIDDEN', (message: string) => message);
export const NETAPI_ERR_NOT_FOUND = createError('NETAPI_ERR_NOT_FOUND', (message: string) => message);
export const NETAPI_ERR_RATE_LIMITED = createError(
  'NETAPI_ERR_RATE_LIMITED',
  (retryAfter: number) => `too many requests: retry in ${retryAfter} s`,
);
export const NETAPI_ERR_LOGIN_THROTTLED = createError(
  'NETAPI_ERR_LOGIN_THROTTLED',
  (retryAfter: number) =>
    `too many failed logins from this address or for this user: retry in ${retryAfter} s`,
);
export const NETAPI_ERR_BUSY = createError(
  'NETAPI_ERR_BUSY',
  () =>
    'the API is at its limit of unauthenticated connections and serves only requests with a valid token now: retry shortly',
);
export const NETAPI_ERR_MASTER = createError('NETAPI_ERR_MASTER', (message: string) => message);

const STATUS: Readonly<Record<string, number>> = {
  NETAPI_ERR_BAD_BODY: 400,
  NETAPI_ERR_BAD_LOWSTATE: 400,
  NETAPI_ERR_BAD_MINION_ID: 400,
  NETAPI_ERR_BAD_QUERY: 400,
  NETAPI_ERR_CLIENT_DISABLED: 400,
  NETAPI_ERR_NOT_SUPPORTED: 400,
  NETAPI_ERR_UNAUTHENTICATED: 401,
  NETAPI_ERR_FORBIDDEN: 403,
  NETAPI_ERR_NOT_FOUND: 404,
  NETAPI_ERR_BODY_TOO_LARGE: 413,
  NETAPI_ERR_MEDIA_TYPE: 415,
  NETAPI_ERR_RATE_LIMITED: 429,
  NETAPI_ERR_LOGIN_THROTTLED: 429,
  NETAPI_ERR_MASTER: 502,
  NETAPI_ERR_BUSY: 503,
  SALT_ERR_INVOCATION: 400,
  SALT_ERR_TARGET_INVALID: 400,
};

/** The HTTP status of an error: by code, 500 for anything unexpected. */
export function statusOf(err: SaltError | { code?: string }): number {
  return (err.code && STATUS[err.code]) || 500;
}
