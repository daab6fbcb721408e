/**
 * How Salt's `ldap3` functions turn their arguments into python-ldap's: `list(vals)` of each
 * attribute's values (a string's characters, a dict's keys), strings encoded to UTF-8 bytes,
 * Active Directory's `unicodePwd` quoted and UTF-16-LE encoded, and python-ldap's
 * `modlist.addModlist`/`modifyModlist` diffs of two entries.
 */
import { SALT_ERR_INVOCATION } from '../kernel/index.js';
import { PyTuple, pyRepr } from '../kernel/python/index.js';
import type { LdapMod } from './_ldap-conn.js';
import { pythonError } from './_py-exception.js';
import { pyShortTypeName as pyTypeName } from './_py-type-name.js';

/** Python's `list(x)` of an argument that should be iterable. */
export function pyList(x: unknown): unknown[] {
  if (Array.isArray(x)) return [...x];
  if (typeof x === 'string') return [...x];
  if (x instanceof Uint8Array) return [...x];
  if (typeof x === 'object' && x !== null) return Object.keys(x);
  throw new SALT_ERR_INVOCATION(`'${pyTypeName(x)}' object is not iterable`);
}

/** python-ldap's refusal of a value that is not bytes. */
const notBytes = (v: unknown): Error =>
  new SALT_ERR_INVOCATION(pyRepr(new PyTuple(['Tuple_to_LDAPMod(): expected a byte string in the list', v])));

/** A value as python-ldap sends it: bytes; a str is Salt-encoded, anything else refused. */
export function toBytes(v: unknown, encodeStr: boolean): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string' && encodeStr) return Buffer.from(v, 'utf8');
  throw notBytes(v);
}

/** Salt's `_format_unicode_password`: `"pwd"` in UTF-16-LE. */
export const unicodePwd = (v: unknown): Uint8Array => {
  const text = v instanceof Uint8Array ? pyRepr(v) : String(v);
  return Buffer.from(`"${text}"`, 'utf16le');
};

/** `{attr: list(vals)}` of a dict argument, values encoded (bytes kept, ints refused later). */
export function entryOf(d: unknown, what: string): Map<string, unknown[]> {
  if (typeof d !== 'object' || d === null || Array.isArray(d))
    throw pythonError('AttributeError', `'${pyTypeName(d)}' object has no attribute 'items'`);
  const out = new Map<string, unknown[]>();
  for (const [attr, vals] of Object.entries(d)) {
    const list = pyList(vals).map((v) => (typeof v === 'string' ? Buffer.from(v, 'utf8') : v));
    out.set(attr, attr === 'unicodePwd' && what === 'new' ? list.map(unicodePwd) : list);
  }
  return out;
}

/** python-ldap's `addModlist`: each attribute with values, None values left out. */
export function addModlist(entry: Map<string, unknown[]>): [string, Uint8Array[]][] {
  const out: [string, Uint8Array[]][] = [];
  for (const [attr, vals] of entry) {
    const kept = vals.filter((v) => v !== null && v !== undefined);
    if (kept.length) out.push([attr, kept.map((v) => toBytes(v, false))]);
  }
  return out;
}

const key = (v: unknown): string => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : pyRepr(v));
const sameSet = (a: unknown[], b: unknown[]): boolean => {
  const sa = new Set(a.map(key));
  const sb = new Set(b.map(key));
  return sa.size === sb.size && [...sa].every((k) => sb.has(k));
};

/** python-ldap's `modifyModlist(old, new)`: adds, whole-attribute deletes and delete+add replaces. */
export function modifyModlist(old: Map<string, unknown[]>, neu: Map<string, unknown[]>): LdapMod[] {
  const mods: LdapMod[] = [];
  const oldByLower = new Map<string, string>();
  for (const a of old.keys()) oldByLower.set(a.toLowerCase(), a);
  const clean = (vals: unknown[] | undefined) => (vals ?? []).filter((v) => v !== null && v !== undefined);
  const bytes = (vals: unknown[]) => vals.map((v) => toBytes(v, false));
  for (const [attr, vals] of neu) {
    const lower = attr.toLowerCase();
    const nv = clean(vals);
    let ov: unknown[] = [];
    const oldName = oldByLower.get(lower);
    if (oldName !== undefined) {
      ov = clean(old.get(oldName));
      oldByLower.delete(lower);
    }
    if (!ov.length && nv.length) mods.push({ op: 'add', attr, vals: bytes(nv) });
    else if (ov.length && nv.length) {
      if (ov.length !== nv.length || !sameSet(ov, nv)) {
        mods.push({ op: 'delete', attr, vals: [] }, { op: 'add', attr, vals: bytes(nv) });
      }
    } else if (ov.length && !nv.length) mods.push({ op: 'delete', attr, vals: [] });
  }
  for (const attr of oldByLower.values())
    if (clean(old.get(attr)).length) mods.push({ op: 'delete', attr, vals: [] });
  return mods;
}
