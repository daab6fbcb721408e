/**
 * REST API instances for tests that need several option sets against one master: a master of
 * tools/local-cluster.ts with `file` eauth users, and netapi served in the test's own process
 * (plain HTTP on 127.0.0.1, a free port) with the `rest_cherrypy` options each case asks for.
 */
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { loadConfigCached } from '../cli/config-cache.js';
import { createLogger } from '../kernel/log.js';
import { freePort } from '../kernel/process/ports.js';
import { type NetapiHandle, startNetapi } from '../plugins/netapi/server.js';
import { Cluster } from './local-cluster.js';

/** One `file` eauth user: its password and its ACL entries. */
export interface TestUser {
  password: string;
  acl: unknown[];
}

/**
 * A cluster whose master knows `users` through the `file` eauth back end (a users file under
 * the cluster root). Start it with `startMaster()` and its minions as usual.
 */
export function eauthCluster(users: Record<string, TestUser>, master: Record<string, unknown> = {}): Cluster {
  const file: Record<string, unknown> = {};
  for (const [name, user] of Object.entries(users)) file[name] = user.acl;
  const c = new Cluster({ master: { ...master, external_auth: { file } } });
  const path = join(c.root, 'users.txt');
  writeFileSync(
    path,
    Object.entries(users)
      .map(([name, u]) => `${name}:${u.password}\n`)
      .join(''),
  );
  // the Cluster keeps its options by reference: the path is only known once the root exists
  file['^filename'] = path;
  return c;
}

export interface TestApi {
  readonly handle: NetapiHandle;
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
}

/** Serves netapi in this process against the master of `confDir`, with `opts` over the test defaults. */
export async function startTestApi(confDir: string, opts: Record<string, unknown> = {}): Promise<TestApi> {
  const port = await freePort();
  const { config } = await loadConfigCached('master', confDir, {
    rest_cherrypy: { port, host: '127.0.0.1', disable_ssl: true, rate_limit: 0, ...opts },
  });
  const handle = await startNetapi(config, createLogger({ name: 'netapi-test', level: 'error' }));
  return { handle, base: `http://127.0.0.1:${handle.port}` };
}

/** `POST /login` for `username`; resolves with the whole answer (status, headers, body). */
export function postLogin(
  base: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
) {
  return fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
    body: JSON.stringify({ username, password, eauth: 'file' }),
  });
}

/** `POST /` with a JSON lowstate and a token. */
export function postLowstate(base: string, token: string, lowstate: unknown) {
  return fetch(`${base}/`, {
    method: 'POST',
    headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(lowstate),
  });
}

export interface PlainAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * An HTTP request sent from the loopback address `from` (`127.0.0.2`, ...), for limits kept
 * per client address; fetch() cannot choose its source address. Its connection is its own
 * and ends with the answer (`Connection: close`).
 */
export function requestFrom(
  from: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<PlainAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: init.method ?? 'GET', headers: init.headers, localAddress: from, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** `POST /login` for `username` from the loopback address `from`. */
export function loginFrom(
  from: string,
  base: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<PlainAnswer> {
  return requestFrom(from, `${base}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
    body: JSON.stringify({ username, password, eauth: 'file' }),
  });
}
