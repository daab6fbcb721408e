/**
 * Salt's `file` eauth back end (salt/auth/file.py): users and passwords in a local file named
 * by `external_auth: {file: {'^filename': ...}}`. `^filetype` is `text` (default; fields split
 * by `^field_separator`, `^username_field`/`^password_field` numbered from 1, passwords in
 * plaintext or a `^hashtype` hex digest), `htpasswd` or `htdigest` (with `^realm`). Any
 * misconfiguration or unreadable file denies, with the reason logged.
 */
import { readFile } from 'node:fs/promises';
import { hexDigest, htdigestHash, safeEqual, verifyHtpasswdHash } from './password-hash.js';

export interface FileEauthOptions {
  filename?: string;
  filetype: string;
  hashtype: string;
  field_separator: string;
  username_field: number;
  password_field: number;
  realm?: string;
}

export interface AuthLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** The `^` options of the back end's mapping, with Salt's defaults. */
export function fileEauthOptions(provider: Readonly<Record<string, unknown>>): FileEauthOptions {
  const opts: FileEauthOptions = {
    filetype: 'text',
    hashtype: 'plaintext',
    field_separator: ':',
    username_field: 1,
    password_field: 2,
  };
  const raw: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(provider)) if (k.startsWith('^')) raw[k.slice(1)] = v;
  if (typeof raw.filename === 'string') opts.filename = raw.filename;
  if (typeof raw.filetype === 'string') opts.filetype = raw.filetype.toLowerCase();
  if (typeof raw.hashtype === 'string') opts.hashtype = raw.hashtype;
  if (typeof raw.field_separator === 'string' && raw.field_separator)
    opts.field_separator = raw.field_separator;
  if (raw.username_field !== undefined) opts.username_field = Number(raw.username_field);
  if (raw.password_field !== undefined) opts.password_field = Number(raw.password_field);
  if (typeof raw.realm === 'string') opts.realm = raw.realm;
  return opts;
}

function textCheck(
  content: string,
  user: string,
  password: string,
  o: FileEauthOptions,
  log: AuthLog,
): boolean {
  const uf = o.username_field - 1;
  const pf = o.password_field - 1;
  if (!Number.isInteger(uf) || !Number.isInteger(pf) || uf < 0 || pf < 0) {
    log.error({ eauth: 'file' }, 'eauth file: ^username_field and ^password_field must be numbers from 1');
    return false;
  }
  for (const line of content.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    const fields = trimmed.split(o.field_separator);
    const name = fields[uf];
    const stored = fields[pf];
    if (name === undefined || stored === undefined) {
      log.error(
        { eauth: 'file', file: o.filename },
        `eauth file: a line of ${o.filename} lacks the user or password field`,
      );
      return false;
    }
    if (name !== user) continue;
    if (o.hashtype === 'plaintext') return safeEqual(stored, password);
    const digest = hexDigest(password, o.hashtype);
    if (digest === undefined) {
      log.error({ eauth: 'file' }, `eauth file: unknown ^hashtype ${JSON.stringify(o.hashtype)}`);
      return false;
    }
    // the first line naming the user decides, as Salt does
    return safeEqual(stored.toLowerCase(), digest);
  }
  return false;
}

function htpasswdCheck(
  content: string,
  user: string,
  password: string,
  o: FileEauthOptions,
  log: AuthLog,
): boolean {
  for (const line of content.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i < 0 || line.slice(0, i) !== user) continue;
    const check = verifyHtpasswdHash(password, line.slice(i + 1).trim());
    if (check.unsupported) {
      log.error(
        { eauth: 'file', scheme: check.unsupported },
        `eauth file: the ${check.unsupported} hash of ${user} in ${o.filename} cannot be verified by tsalt; use apr1 (htpasswd -m), SHA-256/512 crypt or {SHA}`,
      );
    }
    return check.ok;
  }
  return false;
}

function htdigestCheck(
  content: string,
  user: string,
  password: string,
  o: FileEauthOptions,
  log: AuthLog,
): boolean {
  if (!o.realm) {
    log.error({ eauth: 'file' }, 'eauth file: a ^realm must be set for the htdigest filetype');
    return false;
  }
  for (const line of content.split(/\r?\n/)) {
    const [name, realm, hash] = line.trim().split(':');
    if (name === user && realm === o.realm && hash !== undefined)
      return safeEqual(hash.toLowerCase(), htdigestHash(user, o.realm, password));
  }
  return false;
}

/** Salt's `file.auth(username, password)`: true only for a matching user and password. */
export async function fileAuthenticate(
  provider: Readonly<Record<string, unknown>>,
  user: string,
  password: string,
  log: AuthLog,
): Promise<boolean> {
  const o = fileEauthOptions(provider);
  if (!o.filename) {
    log.error(
      { eauth: 'file' },
      'eauth file: an authentication file must be set in external_auth:file:^filename',
    );
    return false;
  }
  let content: string;
  try {
    content = await readFile(o.filename, 'utf8');
  } catch (err) {
    log.error(
      { eauth: 'file', file: o.filename, err: (err as Error).message },
      `eauth file: cannot read ${o.filename}`,
    );
    return false;
  }
  if (o.filetype === 'text') return textCheck(content, user, password, o, log);
  if (o.filetype === 'htpasswd') return htpasswdCheck(content, user, password, o, log);
  if (o.filetype === 'htdigest') return htdigestCheck(content, user, password, o, log);
  log.error({ eauth: 'file' }, `eauth file: unknown ^filetype ${JSON.stringify(o.filetype)}`);
  return false;
}
