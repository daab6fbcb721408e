/**
 * salt-api's web app hosting (how SaltGUI is deployed): `static` (a directory) served under
 * `static_path`, `app` (an HTML file) served at `app_path`, and, as rest_cherrypy's
 * html_override tool does, the app for any other GET whose `Accept` asks for HTML (a browser
 * reloading a client-side route such as `/minions`). Unlike CherryPy, an Accept of any-type alone
 * (curl, scripts) or a list without `text/html` never gets the app. Static paths are
 * resolved inside the directory only (no `..`, no symlink out of it).
 */

import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NetapiContext } from '../context.js';
import { NETAPI_ERR_NOT_FOUND } from '../errors.js';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Whether `accept` lists `text/html` with a non-zero quality. */
export function acceptsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.trim().split(';');
    if (type?.trim().toLowerCase() !== 'text/html') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** The file under `root` that `rel` names, or undefined when it is outside or not a file. */
export async function staticFile(root: string, rel: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rel);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.split(/[\\/]/).includes('..')) return undefined;
  try {
    const base = await realpath(root);
    const full = await realpath(resolve(base, `.${sep}${decoded}`));
    if (full !== base && !full.startsWith(base + sep)) return undefined;
    return (await stat(full)).isFile() ? full : undefined;
  } catch {
    return undefined;
  }
}

function under(path: string, prefix: string): boolean {
  const p = prefix.replace(/\/+$/, '');
  return path === p || path.startsWith(`${p}/`);
}

export function appRoutes(app: FastifyInstance, ctx: NetapiContext): void {
  const opts = ctx.opts;
  const staticPath = `/${opts.static_path.replace(/^\/+|\/+$/g, '')}`;
  const appPath = `/${opts.app_path.replace(/^\/+|\/+$/g, '')}`;

  const sendApp = async (reply: FastifyReply) => {
    const html = await readFile(opts.app as string).catch(() => {
      throw new NETAPI_ERR_NOT_FOUND(`the app file ${opts.app} cannot be read`);
    });
    return reply.code(200).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html);
  };

  if (opts.static) {
    const root = opts.static;
    const handler = async (req: FastifyRequest<{ Params: { '*'?: string } }>, reply: FastifyReply) => {
      const file = await staticFile(root, req.params['*'] ?? '');
      if (!file) throw new NETAPI_ERR_NOT_FOUND(`no such file: ${req.url.split('?')[0]}`);
      const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
      return reply
        .code(200)
        .type(type)
        .send(await readFile(file));
    };
    app.get(`${staticPath}/*`, handler);
  }

  if (opts.app) {
    app.get(appPath, async (_req, reply) => sendApp(reply));
    app.get(`${appPath}/*`, async (_req, reply) => sendApp(reply));
    // rest_cherrypy's html_override: a browser asking for any other page gets the app
    app.addHook('onRequest', async (req, reply) => {
      if (req.method !== 'GET') return;
      const path = req.url.split('?')[0] ?? '/';
      if (under(path, appPath) || under(path, staticPath)) return;
      const accept = req.headers.accept;
      if (accept === '*/*' || !acceptsHtml(accept)) return;
      return sendApp(reply);
    });
  }
}
