/**
 * PEM text as Salt's x509 module rewrites it: the first entry (of a given type) with the body in
 * lines of 64 characters, the header and footer on their own lines, and a trailing newline.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SALT_ERR_INVOCATION } from '../kernel/index.js';

function readIfFile(text: string): string {
  try {
    if (statSync(text).isFile()) return readFileSync(text, 'utf8');
  } catch {
    // not a path
  }
  return text;
}

/** PEM put on one line (as mine.get returns it) split back into lines. */
function unflatten(text: string): string {
  if (text.includes('\n') || !text.startsWith('-----') || !text.endsWith('-----')) return text;
  const parts: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    if (rest.startsWith('-----')) {
      const end = rest.indexOf('-----', 5) + 5;
      parts.push(rest.slice(0, end));
      rest = rest.slice(end);
    } else if (!rest.slice(0, 64).includes('-')) {
      parts.push(rest.slice(0, 64));
      rest = rest.slice(64);
    } else {
      const cut = rest.indexOf('-');
      parts.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
  }
  return parts.join('\n');
}

/** The first PEM entry (of `pemType`, a regex fragment) in a text or file, reformatted. */
export function normalizePem(input: string, pemType?: string): string {
  const text = unflatten(readIfFile(input));
  const type = pemType ?? '[0-9A-Z ]+';
  const re = new RegExp(
    `\\s*(?<header>-----BEGIN ${type}-----)\\s+(?:(?<proc>Proc-Type: 4,ENCRYPTED)\\s*)?` +
      '(?:(?<dek>DEK-Info: (?:DES-[3A-Z\\-]+,[0-9A-F]{16}|[0-9A-Z\\-]+,[0-9A-F]{32}))\\s*)?' +
      `(?<body>[\\s\\S]+?)\\s+(?<footer>-----END ${type}-----)\\s*`,
  );
  const m = re.exec(text);
  if (!m) {
    throw new SALT_ERR_INVOCATION(
      pemType
        ? `PEM does not contain a single entry of type ${pemType}:\n${text}`
        : `PEM text not valid:\n${text}`,
    );
  }
  const g = m.groups ?? {};
  const header = g.header ?? '';
  const procType = g.proc;
  const dekInfo = g.dek;
  const body = (g.body ?? '').replace(/\s+/g, '');
  const footer = g.footer ?? '';
  let out = `${header}\n`;
  if (procType) out += `${procType}\n`;
  if (dekInfo) out += `${dekInfo}\n\n`;
  for (let i = 0; i < body.length; i += 64) out += `${body.slice(i, i + 64)}\n`;
  return `${out}${footer}\n`;
}

/** Writes a file readable by its owner only (Salt writes keys and certificates under umask 077). */
export function writeOwnerOnly(path: string, data: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const old = process.umask(0o077);
  try {
    writeFileSync(path, data);
  } finally {
    process.umask(old);
  }
}

/**
 * Salt's `write_pem`: the first PEM entry of `text` (of `pemType`) written under umask 077; a
 * CERTIFICATE written with `overwrite` false keeps a private key before it and DH parameters
 * after it. Bytes are written as they are.
 */
export function writePem(
  text: string | Buffer,
  path: string,
  overwrite: boolean,
  pemType: string | null,
): string {
  if (typeof text !== 'string') {
    writeOwnerOnly(path, text);
    return `PEM written to ${path}`;
  }
  const entry = normalizePem(text, pemType ?? undefined);
  let key = '';
  let dh = '';
  if (pemType === 'CERTIFICATE' && !overwrite && existsSync(path)) {
    const old = readFileSync(path, 'utf8');
    const tryEntry = (t: string) => {
      try {
        return normalizePem(old, t);
      } catch {
        return '';
      }
    };
    dh = tryEntry('DH PARAMETERS');
    key = tryEntry('(?:RSA )?PRIVATE KEY');
  }
  writeOwnerOnly(path, key + entry + dh);
  return `PEM written to ${path}`;
}
