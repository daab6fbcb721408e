/**
 * Salt's `http` execution module (`salt/modules/http.py` over `salt/utils/http.py`, its
 * default backend): `http.query` requests a URL and returns `body`, and on request `status`,
 * `headers`, `text` and the decoded `dict` (json, yaml); a non-2xx answer is `{status, error,
 * body}` unless `raise_error=False`; a transport failure is `{error}`.
 * `wait_for_successful_query` repeats the query until it succeeds.
 */
import { writeFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_COMPAT_VERSION,
  SALT_ERR_EXEC_COMMAND,
} from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { updateCaBundle } from './_http-ca-bundle.js';
import { fetchOnce } from './_http-fetch.js';
import { httpLimits } from './_http-limits.js';
import { proxyFor } from './_http-proxy.js';
import { pyJsonLoads } from './_py-json-loads.js';

type Query = Record<string, unknown>;

/** A dict as `k=v&...` (Python's `urlencode` of its str() values). */
const formEncode = (d: Query): string =>
  new URLSearchParams(Object.entries(d).map(([k, v]): [string, string] => [k, pyStr(v)])).toString();

/** `url` with `params` appended as a query string (tornado's `url_concat`). */
function withParams(url: string, params: unknown): string {
  if (!params || typeof params !== 'object') return url;
  const s = formEncode(params as Query);
  if (!s) return url;
  return `${url}${url.includes('?') ? (url.endsWith('?') || url.endsWith('&') ? '' : '&') : '?'}${s}`;
}

function bodyText(body: Buffer, decodeBody: boolean): string {
  if (!decodeBody) return body.toString('latin1');
  return body.toString('utf8');
}

/** What a query needs of its caller: a function's context, or a returner's. */
export type QueryContext = Pick<ExecContext, 'opts' | 'log'> & { readonly signal?: AbortSignal };

/** Salt's `salt.utils.http.query` with the tornado backend, for the keywords listed in the doc. */
export async function query(ctx: QueryContext, url: string, kw: Query): Promise<Record<string, unknown>> {
  const ret: Record<string, unknown> = {};
  const opts = { ...ctx.opts, ...((kw.opts as Query | undefined) ?? {}) };
  let target = url;
  if (kw.test === true) {
    if (kw.test_url === undefined || kw.test_url === null) return {};
    target = String(kw.test_url);
    ret.test = true;
  }
  const method = String(kw.method ?? 'GET');
  const headerDict: Record<string, string> = {};
  for (const [k, v] of Object.entries((kw.header_dict as Query | null) ?? {})) headerDict[k] = pyStr(v);
  for (const line of Array.isArray(kw.header_list) ? kw.header_list : []) {
    const comps = String(line).split(':');
    if (comps.length >= 2) headerDict[(comps[0] as string).trim()] = (comps[1] as string).trim();
  }
  const agent = kw.agent === undefined ? `Salt/${SALT_COMPAT_VERSION} http.query()` : String(kw.agent);
  headerDict['User-agent'] = agent;
  // tornado's client gives a POST without a Content-Type the form one
  if (method === 'POST' && !Object.keys(headerDict).some((h) => h.toLowerCase() === 'content-type'))
    headerDict['Content-Type'] = 'application/x-www-form-urlencoded';
  let data: string | null = null;
  if (kw.data !== undefined && kw.data !== null)
    data = typeof kw.data === 'object' ? formEncode(kw.data as Query) : String(kw.data);
  const verifySsl =
    kw.verify_ssl === undefined || kw.verify_ssl === null
      ? opts.verify_ssl !== false
      : kw.verify_ssl !== false;
  const username = kw.username === undefined || kw.username === null ? null : String(kw.username);
  const password = kw.password === undefined || kw.password === null ? null : String(kw.password);
  const decodeBody = kw.decode_body !== false;
  const full = withParams(target, kw.params);
  let res: Awaited<ReturnType<typeof fetchOnce>>;
  try {
    res = await fetchOnce({
      url: full,
      method,
      headers: headerDict,
      body: data,
      auth: username !== null && password !== null ? { user: username, pass: password } : null,
      verifySsl,
      ...httpLimits(opts),
      proxy: proxyFor(opts, full),
      signal: ctx.signal,
    });
  } catch (err) {
    if (kw.status === true) ret.status = 0;
    ret.error = (err as Error).message;
    ctx.log.debug(`Cannot perform 'http.query': ${full} - ${ret.error}`);
    return ret;
  }
  const text = bodyText(res.body, decodeBody);
  if ((res.status < 200 || res.status >= 300) && kw.raise_error !== false) {
    ret.status = res.status;
    ret.error = `HTTP ${res.status}: ${res.reason || 'Unknown'}`;
    ret.body = text;
    return ret;
  }
  ret.body = text;
  if (typeof kw.text_out === 'string') await writeFile(kw.text_out, text);
  if (kw.status === true) ret.status = res.status;
  if (kw.headers === true) ret.headers = res.headers;
  let wantText = kw.text === true;
  if (kw.decode === true) {
    let type = String(kw.decode_type ?? 'auto');
    if (type === 'auto') {
      const ct =
        Object.entries(res.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ??
        'application/json';
      type = ct.includes('xml')
        ? 'xml'
        : ct.includes('json')
          ? 'json'
          : ct.includes('yaml')
            ? 'yaml'
            : 'plain';
    }
    if (!['json', 'xml', 'yaml', 'plain'].includes(type)) {
      ret.error = "Invalid decode_type specified. Valid decode types are: ('json', 'xml', 'yaml', 'plain')";
      ctx.log.error(String(ret.error));
      return ret;
    }
    if (type === 'json') ret.dict = pyJsonLoads(text);
    else if (type === 'yaml') ret.dict = parseYaml(text);
    else if (type === 'xml')
      throw new SALT_ERR_EXEC_COMMAND('http.query: decode_type xml is not supported by tsalt');
    else wantText = true;
    if (typeof kw.decode_out === 'string') await writeFile(kw.decode_out, text);
  }
  if (wantText) ret.text = text;
  return ret;
}

const QUERY_DOC = `Query a resource, and decode the return data.

Keywords: method, params (a dict added to the URL), data (text, or a dict sent form-encoded),
header_dict, header_list, username/password (basic auth), status, headers, text, decode,
decode_type (auto, json, yaml, plain), verify_ssl, agent, raise_error (False: a non-2xx answer
is returned like any other), test/test_url, text_out, decode_out, decode_body.

CLI Example:

    salt '*' http.query http://somelink.com/
    salt '*' http.query http://somelink.com/ method=POST params='{"key1": "val1"}' data='<xml>somecontent</xml>'`;

export default defineModule({
  name: 'http',
  doc: 'Make web calls: webhooks and basic http testing.',
  functions: {
    query: defineFunction({
      args: (z) => z.object({ url: z.string() }),
      varkw: true,
      doc: QUERY_DOC,
      run: async (ctx, a, extra) => {
        try {
          return await query(ctx, a.url, extra.kwargs);
        } catch (err) {
          throw new SALT_ERR_EXEC_COMMAND((err as Error).message);
        }
      },
    }),
    update_ca_bundle: defineFunction({
      args: (z) =>
        z.object({
          target: z.string().nullable().default(null),
          source: z.string().nullable().default(null),
          merge_files: z.unknown().default(null),
        }),
      doc: "Download a CA bundle (source, default the ca_bundle_url option or curl's cacert.pem) over target (default the ca_bundle option, else the bundle found on this system), then append merge_files (a path or a list).\n\nCLI Example: salt '*' http.update_ca_bundle target=/path/to/cacerts.pem source=https://example.com/cacerts.pem merge_files=/path/to/mycert.pem",
      run: async (ctx, a) => {
        const target = a.target ?? ((await ctx.call('config.get', ['ca_bundle', null])) as string | null);
        const source = a.source ?? ((await ctx.call('config.get', ['ca_bundle_url', null])) as string | null);
        return updateCaBundle(ctx, (url, kw) => query(ctx, url, kw), target, source, a.merge_files);
      },
    }),
    wait_for_successful_query: defineFunction({
      args: (z) => z.object({ url: z.string(), wait_for: z.number().default(300) }),
      varkw: true,
      doc: "Query a resource until a successful response (no error), for up to wait_for seconds (request_interval: seconds between tries), and decode the return data.\n\nCLI Example: salt '*' http.wait_for_successful_query http://somelink.com/ wait_for=160 request_interval=1",
      run: async (ctx, a, extra) => {
        const start = Date.now();
        const interval = Number(extra.kwargs.request_interval ?? 0);
        for (;;) {
          let result: Record<string, unknown> | null = null;
          let caught: Error | null = null;
          try {
            result = await query(ctx, a.url, extra.kwargs);
            if (!result.Error && !result.error) return result;
          } catch (err) {
            caught = err as Error;
          }
          if (Date.now() > start + a.wait_for * 1000) {
            if (!result && caught) throw new SALT_ERR_EXEC_COMMAND(caught.message);
            return result;
          }
          if (ctx.signal.aborted) return result;
          await new Promise((r) => setTimeout(r, Math.max(interval * 1000, 10)));
        }
      },
    }),
  },
});
