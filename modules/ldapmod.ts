/**
 * Salt's `ldapmod` execution module, loaded as `ldap` (`salt/modules/ldapmod.py`): one search,
 * its connection settings (`uri`, else `server` and `port`; `tls`, `no_verify`, `binddn`,
 * `bindpw`, `anonymous`) from keywords, else from the `ldap.*` options. A failed bind is a
 * CommandExecutionError naming the server and bind DN (never the password); a failed search
 * is python-ldap's exception, as Salt lets it through.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyFloatRepr, pyTruthy } from '../kernel/python/index.js';
import { LdapConnection, SCOPES } from './_ldap-conn.js';
import { failureStr, LdapFailureError } from './_ldap-errors.js';
import { pyList } from './_ldap-values.js';
import { pythonError } from './_py-exception.js';
import { pyInt } from './_py-int.js';

type Extra = Readonly<Record<string, unknown>>;

/** Salt's `_config`: the keyword when given, else `config.option('ldap.<key>')`. */
async function conf(ctx: ExecContext, extra: Extra, name: string, key = name): Promise<unknown> {
  if (name in extra) return extra[name];
  return ctx.call('config.option', [`ldap.${key}`]);
}

/** python-ldap's scope number as ldapts names it. */
const SCOPE_BY_NUMBER = [SCOPES.BASE, SCOPES.ONELEVEL, SCOPES.SUBTREE, SCOPES.SUBORDINATE] as const;

/** Python's `round(x, n)` shown with `str()`. */
const pyRound = (x: number, n: number): string => pyFloatRepr(Math.round(x * 10 ** n) / 10 ** n);

/** `_LDAPConnection`: connect, StartTLS when asked, a simple bind unless anonymous. */
async function connect(ctx: ExecContext, extra: Extra): Promise<LdapConnection> {
  const o: Record<string, unknown> = {};
  for (const name of ['uri', 'server', 'port', 'tls', 'no_verify', 'binddn', 'bindpw', 'anonymous'])
    o[name] = await conf(ctx, extra, name);
  const uri = o.uri === '' ? `ldap://${String(o.server)}:${String(o.port)}` : String(o.uri);
  const tls = pyTruthy(o.no_verify) ? { rejectUnauthorized: false } : {};
  let conn: LdapConnection | undefined;
  try {
    conn = await LdapConnection.open({ url: uri, tls, startTls: pyTruthy(o.tls) });
    if (!pyTruthy(o.anonymous)) await conn.bindSimple(String(o.binddn), String(o.bindpw));
    return conn;
  } catch (e) {
    await conn?.close();
    const why = e instanceof LdapFailureError ? failureStr(e.failure) : String(e);
    throw new SALT_ERR_EXEC_COMMAND(`Failed to bind to LDAP server ${uri} as ${String(o.binddn)}: ${why}`);
  }
}

export default defineModule({
  name: 'ldap',
  doc: 'Salt interface to LDAP commands: search a directory (ldap.uri or ldap.server and ldap.port, ldap.tls, ldap.no_verify, ldap.anonymous, ldap.binddn, ldap.bindpw, ldap.basedn, ldap.scope, ldap.attrs).',
  functions: {
    search: defineFunction({
      args: (z) =>
        z.object({
          filter: z.unknown(),
          dn: z.unknown().default(null),
          scope: z.unknown().default(null),
          attrs: z.unknown().default(null),
        }),
      varkw: true,
      doc: `Run an arbitrary LDAP query and return the results.

filter: the LDAP filter; dn: the base DN (ldap.basedn); scope: 0 base, 1 one level, 2 subtree (ldap.scope); attrs: the attributes to return (ldap.attrs; '' for all). Connection keywords: uri, server, port, tls, no_verify, binddn, bindpw, anonymous. Returns the results, their count and the time taken.

CLI Example:

    salt 'ldaphost' ldap.search "filter=cn=myhost"`,
      async run(ctx, a, extra) {
        const dn = pyTruthy(a.dn) ? a.dn : await conf(ctx, extra.kwargs, 'dn', 'basedn');
        const scope = pyTruthy(a.scope) ? a.scope : await conf(ctx, extra.kwargs, 'scope');
        const attrs =
          a.attrs === '' ? null : a.attrs === null ? await conf(ctx, extra.kwargs, 'attrs') : a.attrs;
        const conn = await connect(ctx, extra.kwargs);
        try {
          const start = performance.now();
          ctx.log.debug(
            `Running LDAP search with filter:${String(a.filter)}, dn:${String(dn)}, scope:${String(scope)}, attrs:${String(attrs)}`,
          );
          const s = SCOPE_BY_NUMBER[pyInt(scope)];
          if (s === undefined)
            throw pythonError(
              'PARAM_ERROR',
              "{'result': -12, 'desc': 'Bad parameter to an ldap routine', 'ctrls': []}",
            );
          const attrlist = attrs === null ? null : pyList(attrs).map(String);
          let results: [string, Record<string, Uint8Array[]>][];
          try {
            results = await conn.search(String(dn), s, String(a.filter), attrlist, false);
          } catch (e) {
            if (e instanceof LdapFailureError) throw pythonError(e.failure.name, failureStr(e.failure));
            throw e;
          }
          const elapsed = (performance.now() - start) / 1000;
          const human = elapsed < 0.2 ? `${pyRound(elapsed * 1000, 1)}ms` : `${pyRound(elapsed, 2)}s`;
          return { results, count: results.length, time: { human, raw: pyRound(elapsed, 5) } };
        } finally {
          await conn.close();
        }
      },
    }),
  },
});
