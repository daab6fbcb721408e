/**
 * X.509 v3 extensions by Salt's names, built from Salt's forms (OpenSSL-like strings such as
 * `critical, CA:true`, lists or dicts): basicConstraints, keyUsage, extendedKeyUsage,
 * subjectKeyIdentifier, authorityKeyIdentifier, issuerAltName, subjectAltName, inhibitAnyPolicy
 * and noCheck. The others Salt knows are refused with a clean error.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import {
  child,
  ctx,
  derBits,
  derBool,
  derInt,
  derNull,
  derOctets,
  derOid,
  intBytes,
  isOid,
  readNode,
  seq,
} from './_x509-der.js';
import { generalName, generalNamePairs, stripCritical } from './_x509-gn.js';
import type { ParsedCert } from './_x509-parse.js';

/** Extension names Salt knows with their OIDs, in the order Salt adds and reads them. */
export const EXTENSIONS: readonly (readonly [string, string])[] = [
  ['basicConstraints', '2.5.29.19'],
  ['keyUsage', '2.5.29.15'],
  ['extendedKeyUsage', '2.5.29.37'],
  ['subjectKeyIdentifier', '2.5.29.14'],
  ['authorityKeyIdentifier', '2.5.29.35'],
  ['issuerAltName', '2.5.29.18'],
  ['authorityInfoAccess', '1.3.6.1.5.5.7.1.1'],
  ['subjectAltName', '2.5.29.17'],
  ['crlDistributionPoints', '2.5.29.31'],
  ['issuingDistributionPoint', '2.5.29.28'],
  ['certificatePolicies', '2.5.29.32'],
  ['policyConstraints', '2.5.29.36'],
  ['inhibitAnyPolicy', '2.5.29.54'],
  ['nameConstraints', '2.5.29.30'],
  ['noCheck', '1.3.6.1.5.5.7.48.1.5'],
  ['tlsfeature', '1.3.6.1.5.5.7.1.24'],
  ['nsComment', ''],
  ['nsCertType', ''],
  ['cRLNumber', '2.5.29.20'],
  ['deltaCRLIndicator', '2.5.29.27'],
  ['freshestCRL', '2.5.29.46'],
];

/** The extensions a certificate may carry (Salt's CERT_EXTS). */
export const CERT_EXTS = new Set([
  'basicConstraints',
  'keyUsage',
  'extendedKeyUsage',
  'subjectKeyIdentifier',
  'authorityKeyIdentifier',
  'issuerAltName',
  'authorityInfoAccess',
  'subjectAltName',
  'crlDistributionPoints',
  'certificatePolicies',
  'policyConstraints',
  'inhibitAnyPolicy',
  'nameConstraints',
  'noCheck',
  'tlsfeature',
  'nsComment',
  'nsCertType',
]);

/** Extensions a CSR may not carry into a certificate (Salt's CSR_FORBIDDEN). */
export const CSR_FORBIDDEN = new Set([
  'authorityInfoAccess',
  'authorityKeyIdentifier',
  'issuerAltName',
  'crlDistributionPoints',
]);

/** Extended key usages by the names Salt accepts. */
export const EKU_OIDS: Readonly<Record<string, string>> = {
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  codeSigning: '1.3.6.1.5.5.7.3.3',
  emailProtection: '1.3.6.1.5.5.7.3.4',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  OCSPSigning: '1.3.6.1.5.5.7.3.9',
  msSmartcardLogin: '1.3.6.1.4.1.311.20.2.2',
  pkInitKDC: '1.3.6.1.5.2.3.5',
  ipsecIKE: '1.3.6.1.5.5.7.3.17',
  msCodeInd: '1.3.6.1.4.1.311.2.1.21',
  msCodeCom: '1.3.6.1.4.1.311.2.1.22',
  msCTLSign: '1.3.6.1.4.1.311.10.3.1',
  msEFS: '1.3.6.1.4.1.311.10.3.4',
};

/** keyUsage bits in order. */
export const KEY_USAGE_BITS = [
  'digitalSignature',
  'nonRepudiation',
  'keyEncipherment',
  'dataEncipherment',
  'keyAgreement',
  'keyCertSign',
  'cRLSign',
  'encipherOnly',
  'decipherOnly',
] as const;

/** An extension ready to encode. */
export interface Extension {
  name: string;
  oid: string;
  critical: boolean;
  value: Buffer;
}

/** What building an extension may need: the subject key, the CA's certificate or key. */
export interface ExtContext {
  subjectPub?: KeyObject;
  caCert?: ParsedCert;
  caPub?: KeyObject;
}

/** Salt's reading of `critical, a:b, c` into a dict (keys without a value are `__present__`). */
export function confString(conf: string): { val: Record<string, string>; critical: boolean } {
  const { rest: s, critical } = stripCritical(conf);
  const val: Record<string, string> = {};
  for (const item of s.split(',').map((x) => x.trim())) {
    const i = item.indexOf(':');
    if (i < 0) val[item] = '__present__';
    else val[item.slice(0, i).trim()] = item.slice(i + 1).trim();
  }
  return { val, critical };
}

/** Python's `"critical" in val`: a substring of a string, a member of a list, a key of a dict. */
function hasItem(val: unknown, item: string): boolean {
  if (typeof val === 'string' || Array.isArray(val)) return val.includes(item);
  return Boolean(val && typeof val === 'object' && item in val);
}

/** The SHA-1 of a key's subjectPublicKey bits: the usual key identifier. */
export function keyIdentifier(pub: KeyObject): Buffer {
  const bits = child(readNode(pub.export({ type: 'spki', format: 'der' })), 1);
  return createHash('sha1').update(bits.content.subarray(1)).digest();
}

function basicConstraints(v: unknown): [Buffer, boolean] {
  let val = v;
  let critical = Boolean(v && typeof v === 'object' && (v as Record<string, unknown>).critical);
  if (typeof v === 'string') {
    const c = confString(v.toLowerCase());
    critical = c.critical;
    if (!('ca' in c.val)) throw new SALT_ERR_INVOCATION("Invalid configuration for basicContraints: 'ca'");
    const pathlen = c.val.pathlen === undefined ? undefined : Number(c.val.pathlen);
    if (pathlen !== undefined && !Number.isInteger(pathlen)) {
      throw new SALT_ERR_INVOCATION(
        `Invalid configuration for basicContraints: invalid literal for int() with base 10: '${c.val.pathlen}'`,
      );
    }
    val = { ca: c.val.ca === 'true', pathlen };
  }
  const d = (val ?? {}) as Record<string, unknown>;
  if (!('ca' in d)) throw new SALT_ERR_INVOCATION("Undefined required key for basicConstraints: 'ca'");
  const ca = Boolean(d.ca);
  const pathlen = d.pathlen === undefined || d.pathlen === null ? undefined : Number(d.pathlen);
  if (!ca && pathlen !== undefined)
    throw new SALT_ERR_INVOCATION('path_length must be None when ca is False');
  return [seq(...(ca ? [derBool(true)] : []), ...(pathlen === undefined ? [] : [derInt(pathlen)])), critical];
}

function keyUsage(v: unknown): [Buffer, boolean] {
  const on = KEY_USAGE_BITS.map((b) => hasItem(v, b));
  if (!on[4] && (on[7] || on[8])) {
    throw new SALT_ERR_INVOCATION(
      'encipher_only and decipher_only can only be true when key_agreement is true',
    );
  }
  const last = on.lastIndexOf(true);
  const bytes = Buffer.alloc(last < 0 ? 0 : Math.floor(last / 8) + 1);
  on.forEach((b, i) => {
    if (b) bytes[i >> 3] = (bytes[i >> 3] ?? 0) | (0x80 >> (i & 7));
  });
  return [derBits(bytes, last < 0 ? 0 : 7 - (last & 7)), hasItem(v, 'critical')];
}

function extendedKeyUsage(v: unknown): [Buffer, boolean] {
  let critical = hasItem(v, 'critical');
  let list: unknown[];
  if (typeof v === 'string') {
    const c = confString(v);
    critical = c.critical;
    list = Object.keys(c.val);
  } else list = Array.isArray(v) ? v : [v];
  const oids = list
    .filter((u) => u !== 'critical')
    .map((u) => {
      const s = String(u);
      const oid = EKU_OIDS[s] ?? s;
      if (!isOid(oid)) throw new SALT_ERR_EXEC_COMMAND(`Invalid oid: ${s}`);
      return derOid(oid);
    });
  return [seq(...oids), critical];
}

function subjectKeyIdentifier(v: unknown, c: ExtContext): [Buffer, boolean] {
  if (hasItem(v, 'critical'))
    throw new SALT_ERR_INVOCATION('subjectKeyIdentifier must be marked as non-critical');
  if (v === 'hash') {
    if (!c.subjectPub)
      throw new SALT_ERR_EXEC_COMMAND('Cannot calculate digest for subjectKeyIdentifier: missing pubkey');
    return [derOctets(keyIdentifier(c.subjectPub)), false];
  }
  const hex = String(v).replace(/:/g, '');
  if (typeof v !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(hex)) {
    throw new SALT_ERR_INVOCATION('Value must be precomputed hash');
  }
  return [derOctets(Buffer.from(hex, 'hex')), false];
}

function authorityKeyIdentifier(v: unknown, c: ExtContext): [Buffer, boolean] {
  if (hasItem(v, 'critical'))
    throw new SALT_ERR_INVOCATION('authorityKeyIdentifier must be marked as non-critical');
  if (!c.caCert && !c.caPub) {
    throw new SALT_ERR_EXEC_COMMAND('Need CA certificate or CA pubkey to calculate authorityKeyIdentifier');
  }
  const val = (typeof v === 'string' ? confString(v).val : (v ?? {})) as Record<string, unknown>;
  let keyid: Buffer | undefined;
  if ('keyid' in val) {
    keyid = c.caCert ? (c.caCert.skid ?? keyIdentifier(c.caCert.publicKey)) : undefined;
    if (!keyid && c.caPub) keyid = keyIdentifier(c.caPub);
  }
  const parts: Buffer[] = keyid ? [ctx(0, false, keyid)] : [];
  if (val.issuer === 'always' || ('issuer' in val && !keyid)) {
    if (c.caCert) {
      parts.push(ctx(1, true, ctx(4, true, c.caCert.issuerDer)), ctx(2, false, intBytes(c.caCert.serial)));
    } else if (val.issuer === 'always') {
      throw new SALT_ERR_EXEC_COMMAND(
        'Could not add authority_cert_issuer and authority_cert_serial_number, but was set to always.',
      );
    }
  }
  return [seq(...parts), false];
}

function altName(v: unknown, c: ExtContext, issuer: boolean): [Buffer, boolean] {
  const { pairs, critical } = generalNamePairs(v);
  const names: Buffer[] = [];
  let rest = pairs;
  if (issuer && pairs.some(([k, x]) => k === 'issuer' && x === 'copy')) {
    if (!c.caCert) throw new SALT_ERR_EXEC_COMMAND('Need CA certificate to copy to issuerAltName');
    const san = c.caCert.extensions.find((e) => e.oid === '2.5.29.17');
    if (!san)
      throw new SALT_ERR_EXEC_COMMAND(
        'No <ObjectIdentifier(oid=2.5.29.17, name=subjectAltName)> extension was found',
      );
    names.push(readNode(san.value).content);
    rest = pairs.filter(([k]) => k !== 'issuer');
  }
  names.push(...rest.map(([k, x]) => generalName(k, x)));
  return [seq(...names), critical];
}

function inhibitAnyPolicy(v: unknown): [Buffer, boolean] {
  const n = typeof v === 'object' && v ? (v as Record<string, unknown>).value : v;
  return [derInt(Number(n)), true];
}

type Builder = (v: unknown, c: ExtContext) => [Buffer, boolean];
const BUILDERS: Readonly<Record<string, Builder>> = {
  basicConstraints,
  keyUsage,
  extendedKeyUsage,
  subjectKeyIdentifier,
  authorityKeyIdentifier,
  issuerAltName: (v, c) => altName(v, c, true),
  subjectAltName: (v, c) => altName(v, c, false),
  inhibitAnyPolicy,
  noCheck: () => [derNull(), false],
  nsComment: () => {
    throw new SALT_ERR_INVOCATION('nsComment is currently not implemented.');
  },
  nsCertType: () => {
    throw new SALT_ERR_INVOCATION('nsCertType is currently not implemented.');
  },
};

/** One extension by Salt's name. */
export function buildExtension(name: string, v: unknown, c: ExtContext): Extension {
  const b = BUILDERS[name];
  if (!b) throw new SALT_ERR_EXEC_COMMAND(`tsalt cannot create the ${name} extension yet`);
  const [value, critical] = b(v, c);
  const oid = EXTENSIONS.find(([n]) => n === name)?.[1] ?? '';
  return { name, oid, critical, value };
}

/** The extensions Salt would add for these keyword arguments, in Salt's order. */
export function buildExtensions(
  kwargs: Record<string, unknown>,
  allowed: Set<string>,
  c: ExtContext,
): Extension[] {
  return EXTENSIONS.filter(([n]) => allowed.has(n) && kwargs[n] !== undefined && kwargs[n] !== null).map(
    ([n]) => buildExtension(n, kwargs[n], c),
  );
}

/** An Extension element. */
export const extensionDer = (e: Extension): Buffer =>
  seq(derOid(e.oid), ...(e.critical ? [derBool(true)] : []), derOctets(e.value));
