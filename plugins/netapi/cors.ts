/**
 * CORS: which foreign origins a browser may let read the API's answers. Only those named in
 * `cors_origin` (the option of Salt's rest_tornado: one origin, a list, or `*`; tsalt also
 * takes fnmatch globs such as `https://*.example.com`); with none configured, no CORS header
 * is sent and only same-origin pages (SaltGUI served by `app`) can read answers.
 *
 * Salt's rest_cherrypy echoes any `Origin` with `Access-Control-Allow-Credentials: true`,
 * which lets every web page a logged-in user visits act with the user's session cookie.
 * tsalt never does: credentials are allowed only to origins listed by name or glob and only
 * with `cors_allow_credentials: true`, never to `*`.
 */
import { globToRegExp } from '../../kernel/util.js';
import type { NetapiOptions } from './config.js';

type CorsOptions = Pick<NetapiOptions, 'cors_origin' | 'cors_allow_credentials'>;

/** What the answer to `origin` allows: `*`, the origin itself, or nothing. */
export function allowedOrigin(opts: CorsOptions, origin: string | undefined): '*' | string | undefined {
  const list =
    opts.cors_origin === null
      ? []
      : typeof opts.cors_origin === 'string'
        ? [opts.cors_origin]
        : opts.cors_origin;
  if (origin !== undefined && list.some((p) => p !== '*' && (p === origin || globToRegExp(p).test(origin))))
    return origin;
  return list.includes('*') ? '*' : undefined;
}

/**
 * The CORS headers of an answer to a request from `origin` (its `Origin` header), with
 * `Vary: Origin` whenever the answer depends on it.
 */
export function corsHeaders(opts: CorsOptions, origin: string | undefined): Record<string, string> {
  const allowed = allowedOrigin(opts, origin);
  const named = opts.cors_origin !== null && opts.cors_origin !== '*';
  const out: Record<string, string> = named ? { Vary: 'Origin' } : {};
  if (allowed === undefined) return out;
  out['Access-Control-Allow-Origin'] = allowed;
  out['Access-Control-Expose-Headers'] = 'GET, POST';
  if (allowed !== '*' && opts.cors_allow_credentials) out['Access-Control-Allow-Credentials'] = 'true';
  return out;
}
