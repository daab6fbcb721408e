/**
 * `http.update_ca_bundle` (Salt's salt.utils.http `update_ca_bundle` and `get_ca_bundle`):
 * downloads a CA bundle over the target file, then appends the `merge_files` that exist. The
 * target defaults to the first bundle found (the `ca_bundle` option, `cacert.pem` or
 * `ca-bundle.crt` in the base file roots, the distributions' usual paths).
 */
import { existsSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecContext } from '../kernel/index.js';

const LOCATIONS = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/pki/tls/certs/ca-bundle.trust.crt',
  '/etc/ssl/certs/ca-bundle.crt',
  '/var/lib/ca-certificates/ca-bundle.pem',
  '/etc/ssl/cert.pem',
];

/** Salt's `get_ca_bundle`: where the CA bundle is, or null. */
export function caBundlePath(opts: Readonly<Record<string, unknown>>): string | null {
  const own = opts.ca_bundle;
  if (typeof own === 'string' && existsSync(own)) return own;
  const roots = (opts.file_roots as Record<string, unknown> | undefined)?.base;
  for (const root of Array.isArray(roots) ? roots : ['/srv/salt']) {
    for (const name of ['cacert.pem', 'ca-bundle.crt']) {
      const p = join(String(root), name);
      if (existsSync(p)) return p;
    }
  }
  return LOCATIONS.find((p) => existsSync(p)) ?? null;
}

/** Downloads `source` over `target` (with `query`, Salt's `http.query` keywords), then appends `merge_files`. */
export async function updateCaBundle(
  ctx: ExecContext,
  query: (url: string, kw: Record<string, unknown>) => Promise<unknown>,
  target: string | null,
  source: string | null,
  mergeFiles: unknown,
): Promise<null> {
  const file = target ?? caBundlePath(ctx.opts);
  if (file === null) {
    ctx.log.error('Unable to detect location to write CA bundle to');
    return null;
  }
  const url = source ?? String(ctx.opts.ca_bundle_url ?? 'http://curl.haxx.se/ca/cacert.pem');
  await query(url, { text: true, decode: false, headers: false, status: false, text_out: file });
  if (mergeFiles === null || mergeFiles === undefined) return null;
  const list = typeof mergeFiles === 'string' ? [mergeFiles] : mergeFiles;
  if (!Array.isArray(list)) {
    ctx.log.error('A value was passed as merge_files which was not either a string or a list');
    return null;
  }
  let merged = '';
  for (const certFile of list) {
    if (!existsSync(String(certFile))) continue;
    try {
      merged = `${merged}\n${await readFile(String(certFile), 'utf8')}`;
    } catch (err) {
      ctx.log.error({ err: (err as Error).message }, `Reading from ${String(certFile)} failed`);
    }
  }
  if (merged) {
    try {
      await appendFile(file, `\n${merged}`);
    } catch (err) {
      ctx.log.error({ err: (err as Error).message }, `Writing to ${file} failed`);
    }
  }
  return null;
}
