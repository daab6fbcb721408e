/**
 * Salt's `ldap` state module (`salt/states/ldap.py`): `ldap.managed` brings LDAP entries to
 * what their directives say, over one connection (the `connect_spec`, its `url` defaulting to
 * the state's name): an entry with values is added or changed, one left with none deleted.
 * The changes show each changed attribute's old and new values, sorted, as bytes.
 */
import type { LdapConnection } from '../modules/_ldap-conn.js';
import { LdapFailureError, ldap3Error } from '../modules/_ldap-errors.js';
import { withConnection } from '../modules/_ldap-spec.js';
import { addModlist, modifyModlist } from '../modules/_ldap-values.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { type EntryAttrs, processEntries, sameEntry, sameOrdered, type ValueSet } from './_ldap-entries.js';

const asLists = (e: EntryAttrs): Map<string, unknown[]> =>
  new Map([...e].map(([k, v]) => [k, [...v.values()]]));

const sortedBytes = (s: ValueSet): Uint8Array[] => [...s.values()].sort((a, b) => Buffer.compare(a, b));

/** One entry's written change: add, modify or delete, as Salt's `ldap3` functions do it. */
async function write(conn: LdapConnection, dn: string, o: EntryAttrs, n: EntryAttrs): Promise<string> {
  if (o.size && n.size) {
    await conn.modify(dn, modifyModlist(asLists(o), asLists(n)));
    return 'modify';
  }
  if (o.size) {
    await conn.delete(dn);
    return 'delete';
  }
  await conn.add(dn, addModlist(asLists(n)));
  return 'add';
}

const opOf = (o: EntryAttrs, n: EntryAttrs): string => (o.size ? (n.size ? 'modify' : 'delete') : 'add');

const managed = defineState({
  args: (z) => z.object({ name: z.string(), entries: z.unknown(), connect_spec: z.unknown().default(null) }),
  doc: `Ensure the existence (or not) of LDAP entries and their attributes.

name: the LDAP server URL, used when connect_spec has no \`\`url\`\`; entries: a list of dicts mapping each DN to a list of directive dicts (\`\`default\`\`, \`\`add\`\`, \`\`delete\`\`, \`\`replace\`\` attribute values, \`\`delete_others\`\`); connect_spec: see \`\`ldap3.connect\`\`. An entry left with no attributes is deleted.`,
  async run(ctx, a): Promise<StateReturn> {
    const spec: unknown = a.connect_spec === null ? {} : a.connect_spec;
    if (typeof spec === 'object' && spec !== null && !Array.isArray(spec) && !('url' in spec))
      (spec as Record<string, unknown>).url = a.name;
    const ret: StateReturn = { name: a.name, changes: {}, result: null, comment: '' };
    const run = async (conn: LdapConnection): Promise<StateReturn> => {
      const { old, new: neu } = await processEntries(conn, a.entries);
      const dnSet = [...new Set([...old.keys(), ...neu.keys()])];
      const changed: string[] = [];
      for (const dn of dnSet) {
        const o = old.get(dn) ?? new Map();
        const n = neu.get(dn) ?? new Map();
        for (const x of [o, n]) for (const [attr, vals] of [...x]) if (!vals.size) x.delete(attr);
        if (sameEntry(o, n)) {
          old.delete(dn);
          neu.delete(dn);
        } else changed.push(dn);
      }
      if (!changed.length) return { ...ret, result: true, comment: 'LDAP entries already set' };
      let done = changed;
      if (ctx.test) ret.comment = 'Would change LDAP entries';
      else {
        ret.result = true;
        ret.comment = 'Successfully updated LDAP entries';
        const errs: string[] = [];
        done = [];
        for (const dn of changed) {
          const o = old.get(dn) ?? new Map();
          const n = neu.get(dn) ?? new Map();
          try {
            await write(conn, dn, o, n);
            done.push(dn);
          } catch (e) {
            if (!(e instanceof LdapFailureError)) throw e;
            const msg = ldap3Error(e.failure).message;
            ctx.log.error(`failed to ${opOf(o, n)} entry ${dn} (${msg})`);
            errs.push(`${opOf(o, n)} entry ${dn}(${msg})`);
          }
        }
        if (errs.length) {
          ret.result = false;
          ret.comment = `failed to ${errs.join(', ')}`;
        }
      }
      const changes: Record<string, unknown> = {};
      for (const dn of done) {
        const o = old.get(dn) ?? new Map<string, ValueSet>();
        const n = neu.get(dn) ?? new Map<string, ValueSet>();
        const side = (x: EntryAttrs) => {
          if (!x.size) return null;
          const out: Record<string, Uint8Array[]> = {};
          for (const [attr, vals] of x)
            if (!sameOrdered(o.get(attr), n.get(attr))) out[attr] = sortedBytes(vals);
          return out;
        };
        changes[dn] = { old: side(o), new: side(n) };
      }
      return { ...ret, changes };
    };
    try {
      return await withConnection(spec, run);
    } catch (e) {
      if (e instanceof LdapFailureError) throw ldap3Error(e.failure);
      throw e;
    }
  },
});

export default defineStateModule({
  name: 'ldap',
  doc: 'Manage entries in an LDAP database (through the ldap3 execution module).',
  functions: { managed },
});
