/**
 * A git server over http on loopback for tests: `git http-backend` (the CGI program git ships)
 * behind a Node http server that asks for basic auth, so gitfs and git_pillar credentials are
 * tested against a real git client and server. Records the `Authorization` users it saw.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The user names of requests that authenticated. */
  users: string[];
  /** How many requests were refused with 401. */
  refused: number;
  close(): Promise<void>;
}

const BACKEND = '/usr/lib/git-core/git-http-backend';

/** Serves the repositories under `root` to `user`:`password` only. */
export async function startGitHttpServer(
  root: string,
  user: string,
  password: string,
): Promise<GitHttpServer> {
  const state = { users: [] as string[], refused: 0 };
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const server: Server = createServer((req, res) => {
    if (req.headers.authorization !== expected) {
      state.refused += 1;
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
      res.end();
      return;
    }
    state.users.push(user);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const cgi = spawn(BACKEND, [], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: user,
        REMOTE_ADDR: '127.0.0.1',
        ...(req.headers['content-encoding']
          ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }
          : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(cgi.stdin);
    let headersDone = false;
    let pending = Buffer.alloc(0);
    cgi.stdout.on('data', (c: Buffer) => {
      if (headersDone) {
        res.write(c);
        return;
      }
      pending = Buffer.concat([pending, c]);
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of pending.subarray(0, end).toString('latin1').split('\r\n')) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(pending.subarray(end + 4));
    });
    cgi.on('close', () => res.end());
    cgi.on('error', () => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get users() {
      return state.users;
    },
    get refused() {
      return state.refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
