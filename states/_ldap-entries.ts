/**
 * What Salt's `ldap.managed` state computes before it writes (`_process_entries`,
 * `_update_entry`, `_toset` in `salt/states/ldap.py`): each entry's attributes as ordered sets
 * of byte values, now and as the directives (`default`, `add`, `delete`, `replace`,
 * `delete_others`) want them. Sets compare in order, as Salt's `OrderedSet` does.
 */
import { pyStr } from '../kernel/util.js';
import type { LdapConnection } from '../modules/_ldap-conn.js';
import { LdapFailureError } from '../modules/_ldap-errors.js';
import { pyList } from '../modules/_ldap-values.js';
import { pythonError } from '../modules/_py-exception.js';

/** An ordered set of byte values, keyed by their bytes. */
export type ValueSet = Map<string, Uint8Array>;
/** An entry: attribute name to its values, in insertion order. */
export type EntryAttrs = Map<string, ValueSet>;

const keyOf = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

/** A set of the given byte values, duplicates dropped. */
export function valueSet(vals: Iterable<Uint8Array>): ValueSet {
  const s: ValueSet = new Map();
  for (const v of vals) if (!s.has(keyOf(v))) s.set(keyOf(v), v);
  return s;
}

/** `OrderedSet.__eq__`: the same values in the same order. */
export function sameOrdered(a: ValueSet | undefined, b: ValueSet | undefined): boolean {
  const ka = [...(a ?? new Map()).keys()];
  const kb = [...(b ?? new Map()).keys()];
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}

/** Two entries equal as Salt's dicts of OrderedSets are. */
export function sameEntry(a: EntryAttrs, b: EntryAttrs): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (!b.has(k) || !sameOrdered(v, b.get(k))) return false;
  return true;
}

/** Salt's `to_bytes` of one value. */
function toBytes(x: unknown): Uint8Array {
  if (x instanceof Uint8Array) return x;
  if (typeof x === 'string') return Buffer.from(x, 'utf8');
  if (typeof x === 'boolean' || (typeof x === 'number' && Number.isInteger(x))) return Buffer.from(pyStr(x));
  throw new TypeError('not bytes');
}

/** Salt's `_toset`: None, a string, an integer or an iterable of them as a set of bytes. */
export function toSet(thing: unknown): ValueSet {
  if (thing === null || thing === undefined) return new Map();
  if (typeof thing === 'string' || typeof thing === 'number' || typeof thing === 'boolean')
    return valueSet([toBytes(thing)]);
  try {
    return valueSet(pyList(thing).map(toBytes));
  } catch {
    return valueSet([Buffer.from(pyStr(thing))]);
  }
}

const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

/** `dict.items()` of a directive's value, Python's error for anything else. */
function itemsOf(v: unknown): [string, unknown][] {
  if (!isDict(v))
    throw pythonError(
      'AttributeError',
      `'${typeof v === 'string' ? 'str' : 'list'}' object has no attribute 'items'`,
    );
  return Object.entries(v);
}

interface EntryStatus {
  deleteOthers: boolean;
  mentioned: Set<string>;
}

/** `_update_entry`: one directives dict applied to `entry`. */
function updateEntry(entry: EntryAttrs, status: EntryStatus, directives: unknown): void {
  for (const [directive, state] of itemsOf(directives)) {
    if (directive === 'delete_others') {
      status.deleteOthers = Boolean(state);
      continue;
    }
    for (const [attr, raw] of itemsOf(state)) {
      status.mentioned.add(attr);
      const vals = toSet(raw);
      if (directive === 'default') {
        if (vals.size && !entry.get(attr)?.size) entry.set(attr, vals);
      } else if (directive === 'add') {
        for (const [k, v] of entry.get(attr) ?? new Map<string, Uint8Array>())
          if (!vals.has(k)) vals.set(k, v);
        if (vals.size) entry.set(attr, vals);
      } else if (directive === 'delete') {
        const existing = entry.get(attr) ?? new Map<string, Uint8Array>();
        entry.delete(attr);
        if (vals.size) {
          for (const k of vals.keys()) existing.delete(k);
          if (existing.size) entry.set(attr, existing);
        }
      } else if (directive === 'replace') {
        entry.delete(attr);
        if (vals.size) entry.set(attr, vals);
      } else throw pythonError('ValueError', `unknown directive: ${directive}`);
    }
  }
}

const copyEntry = (e: EntryAttrs): EntryAttrs => new Map([...e].map(([k, v]) => [k, new Map(v)]));

/** The entry at `dn` as a base search finds it (attributes with values only), or empty. */
async function currentEntry(conn: LdapConnection, dn: string): Promise<EntryAttrs> {
  let results: [string, Record<string, Uint8Array[]>][];
  try {
    results = await conn.search(dn, 'base', '(objectClass=*)', null, false);
  } catch (e) {
    if (e instanceof LdapFailureError && e.failure.name === 'NO_SUCH_OBJECT') return new Map();
    throw e;
  }
  const attrs = results[0]?.[1] ?? {};
  return new Map(
    Object.entries(attrs)
      .filter(([, v]) => v.length)
      .map(([k, v]) => [k, valueSet(v)]),
  );
}

/** `_process_entries`: every mentioned DN's entry now (`old`) and as wanted (`new`). */
export async function processEntries(
  conn: LdapConnection,
  entries: unknown,
): Promise<{ old: Map<string, EntryAttrs>; new: Map<string, EntryAttrs> }> {
  const old = new Map<string, EntryAttrs>();
  const neu = new Map<string, EntryAttrs>();
  for (const entriesDict of pyList(entries)) {
    for (const [dn, seq] of itemsOf(entriesDict)) {
      let olde = neu.get(dn);
      if (olde === undefined) {
        olde = await currentEntry(conn, dn);
        old.set(dn, olde);
      }
      const newe = copyEntry(olde);
      neu.set(dn, newe);
      const status: EntryStatus = { deleteOthers: false, mentioned: new Set() };
      for (const directives of pyList(seq)) updateEntry(newe, status, directives);
      if (status.deleteOthers)
        for (const attr of [...newe.keys()]) if (!status.mentioned.has(attr)) newe.delete(attr);
    }
  }
  return { old, new: neu };
}
