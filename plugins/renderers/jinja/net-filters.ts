/**
 * Salt's filters that reach the network from the machine the template renders on:
 * `dns_check` (salt/utils/network.py: resolve a name, prefer an address that accepts a TCP
 * connection on the port, IPv6 in brackets) and `http_query` (salt/utils/http.py `query`: the
 * `body`, with `status`, `headers`, `text` and a decoded `dict` when asked). Both are async: the
 * engine awaits a filter's promise.
 */
import { lookup } from 'node:dns/promises';
import { isIPv6, Socket } from 'node:net';
import { pythonOsError } from '../../../modules/_python-oserror.js';
import { loadYaml } from '../yaml/load.js';
import { arg, type Fn } from './filters.js';
import { numValue } from './numbers.js';
import { isMap, str, TemplateError, truthy } from './values.js';

/** Whether a TCP connection to `host:port` opens within 2 seconds (Salt's `_test_addrs`). */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = new Socket();
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(2000, () => done(false));
    sock.once('error', () => done(false));
    sock.connect(port, host, () => done(true));
  });
}

async function resolveAll(addr: string, family: 0 | 4 | 6): Promise<string[]> {
  try {
    const found = await lookup(addr, { all: true, family, verbatim: true });
    return [...new Set(found.map((f) => f.address))];
  } catch {
    return [];
  }
}

/** `dns_check(addr, port, safe=False, ipv6=None)`. */
async function dnsCheck(value: unknown, args: unknown[], kw: Record<string, unknown>): Promise<string> {
  const addr = str(value);
  const port = Number(numValue(arg(args, kw, 0, 'port', 0) as number));
  const ipv6 = arg(args, kw, 2, 'ipv6', null);
  let addrs = await resolveAll(addr, ipv6 === true ? 6 : ipv6 === false ? 4 : 0);
  // an IPv4 name asked for as IPv6: Salt looks it up again as IPv4
  if (addrs.length === 0 && ipv6 === true) addrs = await resolveAll(addr, 4);
  if (addrs.length === 0) throw new TemplateError(`DNS lookup or connection check of '${addr}' failed.`);
  let chosen = addrs[0] as string;
  for (const a of addrs) {
    if (await connects(a, port)) {
      chosen = a;
      break;
    }
  }
  return isIPv6(chosen) ? `[${chosen}]` : chosen;
}

function queryString(params: unknown): string {
  if (!isMap(params)) return '';
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) q.append(k, str(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A fetch failure as Salt words it: the socket error underneath in Python's words. */
function socketError(err: Error): string {
  const cause = err.cause as (Error & { code?: string }) | undefined;
  return cause ? pythonOsError(cause) : err.message;
}

/** What Salt's `decode_type="auto"` picks from the content type. */
function decodeKind(contentType: string): string {
  if (contentType.includes('xml')) return 'xml';
  if (contentType.includes('json')) return 'json';
  if (contentType.includes('yaml')) return 'yaml';
  return 'plain';
}

/** `http_query(url, method='GET', params=None, data=None, header_dict=None, status=False, headers=False, text=False, decode=False, decode_type='auto', verify_ssl=True)`. */
async function httpQuery(value: unknown, args: unknown[], kw: Record<string, unknown>): Promise<unknown> {
  const url = `${str(value)}${queryString(kw.params)}`;
  const method = str(kw.method ?? arg(args, kw, 0, 'method', 'GET')).toUpperCase();
  const headersIn = isMap(kw.header_dict)
    ? Object.fromEntries(Object.entries(kw.header_dict).map(([k, v]) => [k, str(v)]))
    : {};
  const ret: Record<string, unknown> = {};
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: headersIn,
      ...(kw.data !== undefined && kw.data !== null ? { body: str(kw.data) } : {}),
      signal: AbortSignal.timeout(Number(kw.http_request_timeout ?? 60) * 1000),
    });
  } catch (err) {
    if (truthy(kw.status ?? false)) ret.status = 0;
    ret.error = socketError(err as Error);
    return ret;
  }
  const body = await res.text();
  if (!res.ok && truthy(kw.raise_error ?? true)) {
    return { status: res.status, error: `HTTP ${res.status}: ${res.statusText}`, body };
  }
  ret.body = body;
  if (truthy(kw.status ?? false)) ret.status = res.status;
  if (truthy(kw.headers ?? false)) ret.headers = Object.fromEntries(res.headers.entries());
  let text = truthy(kw.text ?? false);
  if (truthy(kw.decode ?? false)) {
    let kind = str(kw.decode_type ?? 'auto');
    if (kind === 'auto') kind = decodeKind(res.headers.get('content-type') ?? 'application/json');
    if (kind === 'json') ret.dict = JSON.parse(body);
    else if (kind === 'yaml') ret.dict = loadYaml(body, { path: url });
    else if (kind === 'plain') text = true;
    else
      throw new TemplateError(
        kind === 'xml'
          ? 'http_query: decode_type xml is not supported'
          : "Invalid decode_type specified. Valid decode types are: ('json', 'xml', 'yaml', 'plain')",
      );
  }
  if (text) ret.text = body;
  return ret;
}

export const NET_FILTERS: Record<string, Fn> = {
  dns_check: dnsCheck,
  http_query: httpQuery,
};
