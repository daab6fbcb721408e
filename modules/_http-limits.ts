/**
 * The HTTP limits of a job's requests from Salt's `http_connect_timeout`, `http_request_timeout`
 * and `http_max_body` (plugins/http/options.ts, validated there), in the units the fetchers use.
 */
import { httpOptionsOf } from './_http-proxy.js';

export interface HttpLimits {
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  maxBody: number;
}

/** The limits in `opts` (a job's `ctx.opts`: plugin options under `extra`), defaults filled in. */
export function httpLimits(opts: Readonly<Record<string, unknown>>): HttpLimits {
  const o = httpOptionsOf(opts);
  return {
    connectTimeoutMs: o.http_connect_timeout * 1000,
    requestTimeoutMs: o.http_request_timeout * 1000,
    maxBody: o.http_max_body,
  };
}
