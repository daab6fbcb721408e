/**
 * The dicts Salt's x509_v2 read functions return: `read_certificate`, `read_csr`, `read_crl`,
 * with extensions rendered by Salt's names and hex written as `AB:CD:..`.
 */
import { createHash } from 'node:crypto';
import { children, readInt, readNode, readOid, readTime } from './_x509-der.js';
import { EKU_OIDS, EXTENSIONS, KEY_USAGE_BITS, keyIdentifier } from './_x509-ext.js';
import { renderGeneralName } from './_x509-gn.js';
import { publicPem } from './_x509-keys.js';
import { nameDict, nameHash, nameString } from './_x509-name.js';
import type { ParsedCert, ParsedCrl, ParsedCsr, RawExtension } from './_x509-parse.js';
import { keyType, sigAlgName } from './_x509-sign.js';

/** Hex as `AB:CD:EF`, padded to whole bytes. */
export function prettyHex(hex: string | Buffer): string {
  let s = typeof hex === 'string' ? hex : hex.toString('hex');
  if (s.length % 2) s = `0${s}`;
  return (s.match(/../g) ?? []).join(':').toUpperCase();
}

export const dec2hex = (n: bigint): string => prettyHex(n.toString(16));

const pad = (n: number) => String(n).padStart(2, '0');
/** A time as Salt prints it: `YYYY-MM-DD HH:MM:SS` (UTC). */
export const fmtTime = (d: Date): string =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** Names Python's cryptography gives extended key usages (others print as dotted OIDs). */
const EKU_NAMED = new Set([
  'serverAuth',
  'clientAuth',
  'codeSigning',
  'emailProtection',
  'timeStamping',
  'OCSPSigning',
  'msSmartcardLogin',
  'pkInitKDC',
]);
const EKU_NAME = new Map(
  Object.entries(EKU_OIDS)
    .filter(([k]) => EKU_NAMED.has(k))
    .map(([k, v]) => [v, k]),
);

type Rendered = Record<string, unknown>;

function renderValue(oid: string, value: Buffer): Rendered | undefined {
  const n = readNode(value);
  switch (oid) {
    case '2.5.29.19': {
      const c = children(n);
      const ca = c[0]?.tag === 0x01 ? (c[0].content[0] ?? 0) !== 0 : false;
      const pl = c.find((x) => x.tag === 0x02);
      return { ca, pathlen: pl ? Number(readInt(pl)) : null };
    }
    case '2.5.29.15': {
      const bits = n.content.subarray(1);
      const on = (i: number) => Boolean((bits[i >> 3] ?? 0) & (0x80 >> (i & 7)));
      const v = Object.fromEntries(KEY_USAGE_BITS.map((b, i) => [b, on(i)]));
      return {
        cRLSign: v.cRLSign,
        dataEncipherment: v.dataEncipherment,
        decipherOnly: v.keyAgreement ? v.decipherOnly : false,
        digitalSignature: v.digitalSignature,
        encipherOnly: v.keyAgreement ? v.encipherOnly : false,
        keyAgreement: v.keyAgreement,
        keyCertSign: v.keyCertSign,
        keyEncipherment: v.keyEncipherment,
        nonRepudiation: v.nonRepudiation,
      };
    }
    case '2.5.29.37':
      return { value: children(n).map((o) => EKU_NAME.get(readOid(o)) ?? readOid(o)) };
    case '2.5.29.14':
      return { value: prettyHex(n.content) };
    case '2.5.29.35': {
      const c = children(n);
      const keyid = c.find((x) => x.tag === 0x80);
      const issuer = c.find((x) => x.tag === 0xa1);
      const sn = c.find((x) => x.tag === 0x82);
      const snv = sn ? readInt(sn) : 0n;
      return {
        keyid: keyid?.content.length ? prettyHex(keyid.content) : null,
        issuer: issuer ? children(issuer).map(renderGeneralName) : null,
        issuer_sn: snv ? dec2hex(snv) : null,
      };
    }
    case '2.5.29.17':
    case '2.5.29.18':
    case '2.5.29.29':
      return { value: children(n).map(renderGeneralName) };
    case '2.5.29.54':
      return { value: Number(readInt(n)) };
    case '1.3.6.1.5.5.7.48.1.5':
      return { value: true };
    case '2.5.29.20':
    case '2.5.29.27':
      return { value: Number(readInt(n)) };
    case '2.5.29.21':
      return { value: CRL_REASONS[n.content[0] ?? 0] };
    case '2.5.29.24':
      return { value: fmtTime(readTime(n)) };
    default:
      return undefined;
  }
}

/** CRL reasons by code, as Salt names them. */
export const CRL_REASONS = [
  'unspecified',
  'keyCompromise',
  'cACompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
  'certificateHold',
  'unused',
  'removeFromCRL',
  'privilegeWithdrawn',
  'aACompromise',
];

/** The extensions Salt knows, by its names, in its order; those tsalt cannot render are left out. */
export function renderExtensions(
  exts: RawExtension[],
  table: readonly (readonly [string, string])[] = EXTENSIONS,
): Rendered {
  const out: Rendered = {};
  for (const [name, oid] of table) {
    const e = exts.find((x) => oid && x.oid === oid);
    if (!e) continue;
    const r = renderValue(oid, e.value);
    if (r) out[name] = { critical: e.critical, ...r };
  }
  return out;
}

function keySize(cert: { publicKey: ParsedCert['publicKey'] }): number | null {
  const d = cert.publicKey.asymmetricKeyDetails;
  if (d?.modulusLength) return d.modulusLength;
  const curve = { prime256v1: 256, secp384r1: 384, secp521r1: 521, secp256k1: 256, secp224r1: 224 }[
    d?.namedCurve ?? ''
  ];
  return curve ?? null;
}

/** Salt's `read_certificate` dict. */
export function certificateDict(c: ParsedCert, fips = false): Rendered {
  const fp = (alg: string) => prettyHex(createHash(alg).update(c.der).digest());
  const fingerprints: Rendered = { sha1: fp('sha1'), sha256: fp('sha256') };
  if (!fips) fingerprints.md5 = fp('md5');
  return {
    version: c.version,
    key_size: keySize(c),
    key_type: keyType(c.publicKey),
    serial_number: dec2hex(c.serial),
    fingerprints,
    subject: nameDict(c.subject),
    subject_hash: prettyHex(nameHash(c.subjectDer)),
    subject_str: nameString(c.subject),
    issuer: nameDict(c.issuer),
    issuer_hash: prettyHex(nameHash(c.issuerDer)),
    issuer_str: nameString(c.issuer),
    not_before: fmtTime(c.notBefore),
    not_after: fmtTime(c.notAfter),
    public_key: publicPem(c.publicKey),
    extensions: renderExtensions(c.extensions),
    signature_algorithm: sigAlgName(c.sigAlgOid),
  };
}

/** Salt's `read_csr` dict. */
export function csrDict(c: ParsedCsr): Rendered {
  return {
    key_size: keySize(c),
    key_type: keyType(c.publicKey),
    subject: nameDict(c.subject),
    subject_hash: prettyHex(nameHash(c.subjectDer)),
    subject_str: nameString(c.subject),
    public_key_hash: prettyHex(keyIdentifier(c.publicKey)),
    extensions: renderExtensions(c.extensions),
  };
}

const CRL_ENTRY_EXTS: readonly (readonly [string, string])[] = [
  ['certificateIssuer', '2.5.29.29'],
  ['CRLReason', '2.5.29.21'],
  ['invalidityDate', '2.5.29.24'],
];

/** Salt's `read_crl` dict. */
export function crlDict(c: ParsedCrl): Rendered {
  const revoked: Rendered = {};
  for (const r of c.revoked) {
    revoked[dec2hex(r.serial).replace(/:/g, '')] = {
      revocation_date: fmtTime(r.date),
      extensions: renderExtensions(r.extensions, CRL_ENTRY_EXTS),
    };
  }
  return {
    issuer: nameDict(c.issuer),
    last_update: fmtTime(c.lastUpdate),
    next_update: c.nextUpdate ? fmtTime(c.nextUpdate) : null,
    revoked_certificates: revoked,
    extensions: renderExtensions(c.extensions),
    signature_algorithm: sigAlgName(c.sigAlgOid),
  };
}
