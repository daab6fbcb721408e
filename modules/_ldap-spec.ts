/**
 * Salt's `ldap3.connect(connect_spec)`: the spec's `backend`, `url` (default `ldapi:///`),
 * `tls` (`starttls`, `newctx`, `cacertfile`, `certfile`, `keyfile`, `require_cert`, ...), `opts`
 * (`network_timeout`, `timeout`, ...) and `bind` (`method` simple, sasl or None, `dn`,
 * `password`, `mechanism`), checked with Salt's errors, then a bound {@link LdapConnection}.
 * The password goes to the server only.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { LdapConnection, type LdapTarget } from './_ldap-conn.js';
import { pythonError } from './_py-exception.js';
import { pyShortTypeName as pyTypeName } from './_py-type-name.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Python's `AttributeError` for `getattr(ldap, name)` on a name python-ldap lacks. */
const noAttr = (name: string): Error =>
  pythonError('AttributeError', `module 'ldap' has no attribute '${name}'`);

/** `d.get(key, dflt)` on a value that must be a dict (Salt calls `.get` on it). */
function get(d: unknown, key: string, dflt: unknown): unknown {
  if (d === null || d === undefined) return dflt;
  if (!isDict(d)) throw pythonError('AttributeError', `'${pyTypeName(d)}' object has no attribute 'get'`);
  return key in d ? d[key] : dflt;
}

/** `d.items()` of an optional dict (`None` is `{}`). */
function items(d: unknown): [string, unknown][] {
  if (d === null || d === undefined) return [];
  if (!isDict(d)) throw pythonError('AttributeError', `'${pyTypeName(d)}' object has no attribute 'items'`);
  return Object.entries(d);
}

const TLS_FILES = { cacertfile: 'ca', certfile: 'cert', keyfile: 'key', crlfile: 'crl' } as const;
const TLS_OTHERS = new Set(['cacertdir', 'cipher_suite', 'dhfile', 'protocol_min', 'random_file']);
const REQUIRE_CERT = new Set(['NEVER', 'HARD', 'DEMAND', 'ALLOW', 'TRY']);
const CRLCHECK = new Set(['NONE', 'PEER', 'ALL']);
const OPTS = new Set([
  'network_timeout',
  'timeout',
  'timelimit',
  'sizelimit',
  'referrals',
  'protocol_version',
  'deref',
  'restart',
  'debug_level',
]);

function tlsTarget(tls: unknown): { tls: ConnectionOptions; startTls: boolean } {
  const out: ConnectionOptions = {};
  let startTls = false;
  for (const [k, v] of items(tls)) {
    if (k === 'starttls') startTls = true;
    else if (k === 'newctx') continue;
    else if (k === 'require_cert' || k === 'crlcheck') {
      const val = String(v).toUpperCase();
      if (!(k === 'require_cert' ? REQUIRE_CERT : CRLCHECK).has(val)) throw noAttr(`OPT_X_TLS_${val}`);
      if (k === 'require_cert') out.rejectUnauthorized = val !== 'NEVER' && val !== 'ALLOW';
    } else if (k in TLS_FILES) {
      out[TLS_FILES[k as keyof typeof TLS_FILES]] = readFileSync(String(v));
    } else if (k === 'cipher_suite') out.ciphers = String(v);
    else if (!TLS_OTHERS.has(k)) throw noAttr(`OPT_X_TLS_${k.toUpperCase()}`);
  }
  return { tls: out, startTls };
}

function optsTarget(opts: unknown): Pick<LdapTarget, 'timeoutMs' | 'connectTimeoutMs'> {
  const out: Pick<LdapTarget, 'timeoutMs' | 'connectTimeoutMs'> = {};
  for (const [k, v] of items(opts)) {
    if (!OPTS.has(k.toLowerCase())) throw noAttr(`OPT_${k.toUpperCase()}`);
    const ms = Number(v) > 0 ? Math.round(Number(v) * 1000) : undefined;
    if (k.toLowerCase() === 'network_timeout') out.connectTimeoutMs = ms;
    if (k.toLowerCase() === 'timeout') out.timeoutMs = ms;
  }
  return out;
}

/** `ldap3.connect`: a connection per Salt's connect_spec, bound as the spec says. */
export async function connectSpec(spec: unknown): Promise<LdapConnection> {
  const backend = get(spec, 'backend', 'ldap');
  if (backend !== 'ldap')
    throw pythonError(
      'ValueError',
      `unsupported backend or required Python module unavailable: ${String(backend)}`,
    );
  const url = String(get(spec, 'url', 'ldapi:///'));
  const target: LdapTarget = {
    url,
    ...tlsTarget(get(spec, 'tls', null)),
    ...optsTarget(get(spec, 'opts', null)),
  };
  const bind = get(spec, 'bind', null);
  const method = get(bind, 'method', 'simple');
  if (bind !== null && bind !== undefined && method !== null && method !== 'simple' && method !== 'sasl')
    throw pythonError(
      'ValueError',
      `unsupported bind method "${String(method)}"; supported bind methods: simple sasl`,
    );
  const conn = await LdapConnection.open(target);
  try {
    if (bind === null || bind === undefined || method === null) return conn;
    if (method === 'simple')
      await conn.bindSimple(String(get(bind, 'dn', '')), String(get(bind, 'password', '')));
    else {
      const mech = String(get(bind, 'mechanism', 'EXTERNAL')).toUpperCase();
      if (mech !== 'EXTERNAL' && mech !== 'PLAIN') throw noAttr(`sasl.${mech.toLowerCase()}`);
      await conn.bindSasl(mech);
    }
    return conn;
  } catch (e) {
    await conn.close();
    throw e;
  }
}

/** Runs `fn` on a connection made from `spec`, closed afterwards. */
export async function withConnection<T>(spec: unknown, fn: (c: LdapConnection) => Promise<T>): Promise<T> {
  const conn = await connectSpec(spec);
  try {
    return await fn(conn);
  } finally {
    await conn.close();
  }
}
