/**
 * X.509 distinguished names as Salt's x509_v2 handles them: built from a dict of short names
 * (C, ST, L, STREET, O, OU, CN, MAIL, SN, GN, UID, SERIALNUMBER, in that order), an RFC 4514
 * string or a list of RDN strings; read back into that dict, an RFC 4514 string and OpenSSL's
 * name hash of the encoding.
 */
import { createHash } from 'node:crypto';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import {
  children,
  type DerNode,
  derOid,
  derString,
  isOid,
  readOid,
  readString,
  seq,
  setOf,
  TAG,
} from './_x509-der.js';

/** Salt's short names with their OIDs, in the order Salt writes and reads them. */
export const NAME_ATTRS: readonly (readonly [string, string])[] = [
  ['C', '2.5.4.6'],
  ['ST', '2.5.4.8'],
  ['L', '2.5.4.7'],
  ['STREET', '2.5.4.9'],
  ['O', '2.5.4.10'],
  ['OU', '2.5.4.11'],
  ['CN', '2.5.4.3'],
  ['MAIL', '1.2.840.113549.1.9.1'],
  ['SN', '2.5.4.4'],
  ['GN', '2.5.4.42'],
  ['UID', '0.9.2342.19200300.100.1.1'],
  ['SERIALNUMBER', '2.5.4.5'],
];

/** The RFC 4514 attribute names (the others are written as dotted OIDs). */
const RFC4514: Readonly<Record<string, string>> = {
  CN: '2.5.4.3',
  L: '2.5.4.7',
  ST: '2.5.4.8',
  O: '2.5.4.10',
  OU: '2.5.4.11',
  C: '2.5.4.6',
  STREET: '2.5.4.9',
  DC: '0.9.2342.19200300.100.1.25',
  UID: '0.9.2342.19200300.100.1.1',
};
const RFC4514_BY_OID = new Map(Object.entries(RFC4514).map(([k, v]) => [v, k]));

/** Attribute OIDs written as PrintableString or IA5String; the rest are UTF8String. */
const STRING_TYPE: Readonly<Record<string, number>> = {
  '2.5.4.6': TAG.PRINTABLE,
  '1.3.6.1.4.1.311.60.2.1.3': TAG.PRINTABLE,
  '2.5.4.5': TAG.PRINTABLE,
  '2.5.4.46': TAG.PRINTABLE,
  '1.2.840.113549.1.9.1': TAG.IA5,
  '0.9.2342.19200300.100.1.25': TAG.IA5,
};

/** One attribute of a name. */
export interface NameAttr {
  oid: string;
  value: string;
}
/** A name: its RDNs in encoding order, each one or more attributes. */
export type Name = NameAttr[][];

const attrDer = (a: NameAttr): Buffer =>
  seq(derOid(a.oid), derString(STRING_TYPE[a.oid] ?? TAG.UTF8, a.value));

/** The DER encoding of a name. */
export const nameDer = (name: Name): Buffer => seq(...name.map((rdn) => setOf(...rdn.map(attrDer))));

/** Splits at `sep` where it is not escaped by a backslash. */
function splitUnescaped(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? '';
    if (c === '\\') {
      cur += c + (s[i + 1] ?? '');
      i++;
    } else if (c === sep) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

const unescapeDn = (v: string): string =>
  v.replace(/\\([0-9a-fA-F]{2}|.)/g, (_m, e: string) =>
    e.length === 2 ? String.fromCharCode(Number.parseInt(e, 16)) : e,
  );

function parseRdn(text: string, err: string): NameAttr[] {
  return splitUnescaped(text, '+').map((part) => {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const oid = RFC4514[key.toUpperCase()] ?? (isOid(key) ? key : undefined);
    if (eq < 1 || !oid) throw new SALT_ERR_EXEC_COMMAND(err);
    return { oid, value: unescapeDn(part.slice(eq + 1)) };
  });
}

/** A name from Salt's forms: a dict of short names, an RFC 4514 string or a list of RDN strings. */
export function buildName(dn: unknown): Name {
  if (typeof dn === 'string') {
    if (dn.trim() === '') return [];
    // RFC 4514 lists the last RDN first.
    return splitUnescaped(dn, ',')
      .map((r) => parseRdn(r, 'Failed parsing rfc4514 dirName string'))
      .reverse();
  }
  if (Array.isArray(dn)) {
    return dn.map((r) => {
      const rdns = splitUnescaped(String(r), ',');
      if (rdns.length > 1) {
        throw new SALT_ERR_INVOCATION(
          'Specified string is not a Relative Distinguished Name, but a Distinguished Name.',
        );
      }
      return parseRdn(String(r), `Failed parsing rdn string: ${String(r)}`);
    });
  }
  if (dn && typeof dn === 'object') {
    const d = dn as Record<string, unknown>;
    return NAME_ATTRS.filter(([k]) => d[k] !== undefined && d[k] !== null).map(([k, oid]) => [
      { oid, value: String(d[k]) },
    ]);
  }
  throw new SALT_ERR_INVOCATION('Need string, list or dict to parse distinguished names');
}

/** A name read from its DER node. */
export function readName(node: DerNode): Name {
  return children(node).map((rdn) =>
    children(rdn).map((atv) => {
      const [oid, val] = children(atv);
      return { oid: oid ? readOid(oid) : '', value: val ? readString(val) : '' };
    }),
  );
}

/** The name as Salt's dict of short names (the first value of each). */
export function nameDict(name: Name): Record<string, string> {
  const flat = name.flat();
  const out: Record<string, string> = {};
  for (const [k, oid] of NAME_ATTRS) {
    const a = flat.find((x) => x.oid === oid);
    if (a) out[k] = a.value;
  }
  return out;
}

function escapeValue(v: string): string {
  if (!v) return '';
  let s = v.replace(/[\\"+,;<>]/g, (c) => `\\${c}`).replace(/\0/g, '\\00');
  if (s.startsWith('#') || s.startsWith(' ')) s = `\\${s}`;
  if (s.endsWith(' ')) s = `${s.slice(0, -1)}\\ `;
  return s;
}

/** The RFC 4514 string of a name (last RDN first), as Python's cryptography writes it. */
export function nameString(name: Name): string {
  return [...name]
    .reverse()
    .map((rdn) => rdn.map((a) => `${RFC4514_BY_OID.get(a.oid) ?? a.oid}=${escapeValue(a.value)}`).join('+'))
    .join(',');
}

/** The first four bytes of the SHA-1 of the name's encoding, little-endian as OpenSSL prints them. */
export const nameHash = (der: Buffer): Buffer =>
  Buffer.from(createHash('sha1').update(der).digest().subarray(0, 4)).reverse();
