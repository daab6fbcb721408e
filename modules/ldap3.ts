/**
 * Salt's `ldap3` execution module (`salt/modules/ldap3.py`): connect to an LDAP server as a
 * `connect_spec` says, then search, add, delete, modify or change entries. Values come back as
 * bytes, as python-ldap gives them; a failure is Salt's `LDAPError` naming python-ldap's
 * exception and its fields. The bind password reaches the server only.
 */
import { randomBytes } from 'node:crypto';
import { defineFunction, defineModule } from '../kernel/index.js';
import type { LdapConnection, LdapEntry, LdapMod } from './_ldap-conn.js';
import { SCOPES } from './_ldap-conn.js';
import { LdapFailureError, ldap3Error } from './_ldap-errors.js';
import { withConnection } from './_ldap-spec.js';
import { addModlist, entryOf, modifyModlist, pyList, toBytes, unicodePwd } from './_ldap-values.js';
import { pythonError } from './_py-exception.js';

/** Runs `fn` on a connection from `spec`, an LDAP failure raised as Salt's `LDAPError`. */
async function ldap<T>(spec: unknown, fn: (c: LdapConnection) => Promise<T>): Promise<T> {
  try {
    return await withConnection(spec, fn);
  } catch (e) {
    if (e instanceof LdapFailureError) throw ldap3Error(e.failure);
    throw e;
  }
}

/** `getattr(ldap, 'SCOPE_' + scope.upper())`. */
function scopeOf(scope: unknown) {
  const name = String(scope).toUpperCase();
  const s = SCOPES[name as keyof typeof SCOPES];
  if (!s) throw pythonError('AttributeError', `module 'ldap' has no attribute 'SCOPE_${name}'`);
  return s;
}

/** The search result as Salt's `dict(results)`. */
const resultDict = (entries: LdapEntry[]): Record<string, Record<string, Uint8Array[]>> =>
  Object.fromEntries(entries);

/** `ldap3.modify`'s modlist: Salt decodes every value back to str, which python-ldap refuses. */
function modlistOf(directives: unknown): LdapMod[] {
  const mods: LdapMod[] = [];
  for (const d of pyList(directives)) {
    const parts = pyList(d);
    if (parts.length < 3)
      throw pythonError('ValueError', `not enough values to unpack (expected 3, got ${parts.length})`);
    if (parts.length > 3) throw pythonError('ValueError', 'too many values to unpack (expected 3)');
    const [op, attr, vals] = parts;
    const name = String(op).toUpperCase();
    if (name !== 'ADD' && name !== 'DELETE' && name !== 'REPLACE')
      throw pythonError('AttributeError', `module 'ldap' has no attribute 'MOD_${name}'`);
    let list = pyList(vals);
    if (attr === 'unicodePwd') list = list.map(unicodePwd);
    mods.push({
      op: name.toLowerCase() as LdapMod['op'],
      attr: String(attr),
      vals: list.map((v) => toBytes(v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : v, false)),
    });
  }
  return mods;
}

const spec = (z: typeof import('zod').z) => z.unknown().default(null);
const req = (z: typeof import('zod').z) => z.unknown();

export default defineModule({
  name: 'ldap3',
  doc: 'Query and modify an LDAP database (alternative interface): connect, search, add, delete, modify and change entries.',
  functions: {
    connect: defineFunction({
      args: (z) => z.object({ connect_spec: spec(z) }),
      doc: `Connect and optionally bind to an LDAP server.

connect_spec: None, or a dict with \`\`backend\`\` (\`\`ldap\`\`), \`\`url\`\` (default \`\`ldapi:///\`\`), \`\`bind\`\` (\`\`method\`\` simple, sasl or None, \`\`dn\`\`, \`\`password\`\`, \`\`mechanism\`\`), \`\`tls\`\` (\`\`starttls\`\`, \`\`cacertfile\`\`, \`\`certfile\`\`, \`\`keyfile\`\`, \`\`require_cert\`\`, ...) and \`\`opts\`\` (\`\`network_timeout\`\`, \`\`timeout\`\`, ...). Returns a connection object.

CLI Example:

    salt '*' ldap3.connect "{'url': 'ldaps://ldap.example.com/', 'bind': {'method': 'simple', 'dn': 'cn=admin,dc=example,dc=com', 'password': 'secret'}}"`,
      run: async (_ctx, a) => {
        await ldap(a.connect_spec, async () => undefined);
        return `<salt.loaded.int.module.ldap3._connect_ctx object at 0x7f${randomBytes(5).toString('hex')}>`;
      },
    }),
    search: defineFunction({
      args: (z) =>
        z.object({
          connect_spec: req(z),
          base: req(z),
          scope: z.unknown().default('subtree'),
          filterstr: z.unknown().default('(objectClass=*)'),
          attrlist: z.unknown().default(null),
          attrsonly: z.unknown().default(0),
        }),
      doc: `Search an LDAP database.

connect_spec: see \`\`ldap3.connect\`\`; base: the DN to start at; scope: subtree, base or onelevel; filterstr: the filter; attrlist: the attributes to return (all when None); attrsonly: non-zero to return no values. Returns a dict mapping each entry's DN to a dict of its attributes' value lists (empty when nothing matched).

CLI Example:

    salt '*' ldap3.search "{'url': 'ldaps://ldap.example.com/', 'bind': {'method': 'simple', 'dn': 'cn=admin,dc=example,dc=com', 'password': 'secret'}}" "base='dc=example,dc=com'"`,
      run: (_ctx, a) =>
        ldap(a.connect_spec, async (c) => {
          const scope = scopeOf(a.scope);
          const attrlist = a.attrlist === null ? null : pyList(a.attrlist).map(String);
          try {
            return resultDict(
              await c.search(
                String(a.base),
                scope,
                String(a.filterstr),
                attrlist,
                Boolean(Number(a.attrsonly)),
              ),
            );
          } catch (e) {
            if (e instanceof LdapFailureError && e.failure.name === 'NO_SUCH_OBJECT') return {};
            throw e;
          }
        }),
    }),
    add: defineFunction({
      args: (z) => z.object({ connect_spec: req(z), dn: req(z), attributes: req(z) }),
      doc: `Add an entry to an LDAP database.

connect_spec: see \`\`ldap3.connect\`\`; dn: the entry's DN; attributes: a non-empty dict mapping each attribute to a non-empty list of values. Returns True, or raises an error.

CLI Example:

    salt '*' ldap3.add "{'url': 'ldaps://ldap.example.com/', 'bind': {'method': 'simple', 'password': 'secret'}}" "dn='dc=example,dc=com'" "attributes={'example': 'values'}"`,
      run: (_ctx, a) =>
        ldap(a.connect_spec, async (c) => {
          const entry = entryOf(a.attributes, 'new');
          await c.add(String(a.dn), addModlist(entry));
          return true;
        }),
    }),
    delete: defineFunction({
      args: (z) => z.object({ connect_spec: req(z), dn: req(z) }),
      doc: `Delete an entry from an LDAP database.

connect_spec: see \`\`ldap3.connect\`\`; dn: the entry's DN. Returns True, or raises an error.

CLI Example:

    salt '*' ldap3.delete "{'url': 'ldaps://ldap.example.com/', 'bind': {'method': 'simple', 'password': 'secret'}}" dn='cn=admin,dc=example,dc=com'`,
      run: (_ctx, a) =>
        ldap(a.connect_spec, async (c) => {
          await c.delete(String(a.dn));
          return true;
        }),
    }),
    modify: defineFunction({
      args: (z) => z.object({ connect_spec: req(z), dn: req(z), directives: req(z) }),
      doc: `Modify an entry in an LDAP database.

connect_spec: see \`\`ldap3.connect\`\`; dn: the entry's DN; directives: a list of \`\`(op, attr, vals)\`\`, op being add, delete (all values when vals is empty) or replace. Returns True, or raises an error. As in Salt 3006, values are passed on as text, which the LDAP library refuses: only directives with no values succeed.

CLI Example:

    salt '*' ldap3.modify "{'url': 'ldaps://ldap.example.com/', 'bind': {'method': 'simple', 'password': 'secret'}}" dn='cn=admin,dc=example,dc=com' directives="('add', 'example', ['example_val'])"`,
      run: (_ctx, a) =>
        ldap(a.connect_spec, async (c) => {
          await c.modify(String(a.dn), modlistOf(a.directives));
          return true;
        }),
    }),
    change: defineFunction({
      args: (z) => z.object({ connect_spec: req(z), dn: req(z), before: req(z), after: req(z) }),
      doc: `Modify an entry in an LDAP database: the differences from \`\`before\`\` to \`\`after\`\`.

connect_spec: see \`\`ldap3.connect\`\`; dn: the entry's DN; before, after: dicts mapping attributes to lists of values, the entry's expected state and the wanted one. Returns True, or raises an error.

CLI Example:

    salt '*' ldap3.change "{'url': 'ldaps://ldap.example.com/', 'bind': {'method': 'simple', 'password': 'secret'}}" dn='cn=admin,dc=example,dc=com' before="{'example_value': 'before_val'}" after="{'example_value': 'after_val'}"`,
      run: (_ctx, a) =>
        ldap(a.connect_spec, async (c) => {
          const mods = modifyModlist(entryOf(a.before, 'old'), entryOf(a.after, 'new'));
          await c.modify(String(a.dn), mods);
          return true;
        }),
    }),
  },
});
