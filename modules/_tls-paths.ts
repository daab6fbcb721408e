/**
 * Where Salt's `tls` module keeps things: the base path (an argument, then the one
 * `tls.set_ca_path` put in the job's context, then the `ca.cert_base_path` option) and the
 * CA's index.txt database.
 */
import { appendFileSync } from 'node:fs';
import type { ExecContext } from '../kernel/index.js';
import { components } from './_tls-text.js';
import type { ParsedCert } from './_x509-parse.js';

const CONTEXT_KEY = 'ca.contextual_cert_base_path';

/** Salt's `set_ca_path`: remember a base path for the rest of the job. */
export function rememberBase(ctx: ExecContext, path: unknown): void {
  if (path) ctx.cache.set(CONTEXT_KEY, String(path));
}

/** Salt's `cert_base_path`. */
export async function basePath(ctx: ExecContext, path?: unknown): Promise<string> {
  if (path) return String(path);
  const remembered = ctx.cache.get(CONTEXT_KEY);
  if (remembered) return String(remembered);
  const opt = await ctx.call('config.option', ['ca.contextual_cert_base_path']);
  if (opt) return String(opt);
  return String((await ctx.call('config.option', ['ca.cert_base_path'])) ?? '');
}

/** YYMMDDHHMMSSZ, index.txt's dates. */
export const twoDigitYear = (d: Date): string =>
  d.toISOString().replace(/^\d\d(\d\d)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d).*/, '$1$2$3$4$5$6Z');

/** The serial as index.txt writes it: upper-case hex without leading zeros. */
export const serialHex = (c: ParsedCert): string => c.serial.toString(16).toUpperCase();

/** index.txt's subject column: Python's repr of pyOpenSSL's byte components. */
export const indexSubject = (c: ParsedCert): string =>
  `/${components(c.subject)
    .map(([k, v]) => `b'${k}'=b'${v}'`)
    .join('/')}\n`;

/** The line `_write_cert_to_database` appends for a certificate. */
export function recordCert(caDir: string, c: ParsedCert, status = 'V'): void {
  appendFileSync(
    `${caDir}/index.txt`,
    `${status}\t${twoDigitYear(c.notAfter)}\t\t${serialHex(c)}\tunknown\t${indexSubject(c)}`,
  );
}
