/**
 * How Salt's x509_v2 states tell what differs between the certificate, CSR or CRL on disk and the
 * one the arguments describe (`_compare_cert`, `_compare_csr`, `_compare_crl`, `_compare_exts`):
 * names compared attribute by attribute, extensions by OID, criticality and encoded value.
 */
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Name, nameString } from '../modules/_x509-name.js';
import type { ParsedCert, ParsedCrl, ParsedCsr, RawExtension } from '../modules/_x509-parse.js';
import { dec2hex } from '../modules/_x509-render.js';
import { sigDigest, verifySigned } from '../modules/_x509-sign.js';

type Kwargs = Record<string, unknown>;

/** The names Python's cryptography gives extension OIDs (what Salt's change lists show). */
const EXT_NAMES: Readonly<Record<string, string>> = {
  '2.5.29.19': 'basicConstraints',
  '2.5.29.15': 'keyUsage',
  '2.5.29.37': 'extendedKeyUsage',
  '2.5.29.14': 'subjectKeyIdentifier',
  '2.5.29.35': 'authorityKeyIdentifier',
  '2.5.29.18': 'issuerAltName',
  '1.3.6.1.5.5.7.1.1': 'authorityInfoAccess',
  '2.5.29.17': 'subjectAltName',
  '2.5.29.31': 'cRLDistributionPoints',
  '2.5.29.28': 'issuingDistributionPoint',
  '2.5.29.32': 'certificatePolicies',
  '2.5.29.36': 'policyConstraints',
  '2.5.29.54': 'inhibitAnyPolicy',
  '2.5.29.30': 'nameConstraints',
  '1.3.6.1.5.5.7.48.1.5': 'OCSPNoCheck',
  '1.3.6.1.5.5.7.1.24': 'TLSFeature',
  '2.5.29.20': 'cRLNumber',
  '2.5.29.27': 'deltaCRLIndicator',
  '2.5.29.46': 'freshestCRL',
  '2.5.29.21': 'cRLReason',
  '2.5.29.24': 'invalidityDate',
  '2.5.29.29': 'certificateIssuer',
};

const extName = (oid: string): string => EXT_NAMES[oid] ?? oid;

const sameExt = (a: RawExtension, b: RawExtension): boolean =>
  a.critical === b.critical && a.value.equals(b.value);

/** Salt's `_compare_exts`: which wanted extensions are new or differ, which present ones go. */
export function extChanges(
  current: RawExtension[],
  wanted: RawExtension[],
): { added: string[]; changed: string[]; removed: string[] } {
  const added: string[] = [];
  const changed: string[] = [];
  for (const w of wanted) {
    const c = current.find((x) => x.oid === w.oid);
    if (!c) added.push(extName(w.oid));
    else if (!sameExt(c, w)) changed.push(extName(w.oid));
  }
  const removed = current.filter((c) => !wanted.some((w) => w.oid === c.oid)).map((c) => extName(c.oid));
  return { added, changed, removed };
}

const anyOf = (d: Record<string, string[]>): boolean => Object.values(d).some((l) => l.length > 0);

/** Whether two names hold the same attributes in the same order (string types aside). */
export const sameName = (a: Name, b: Name): boolean =>
  JSON.stringify(a.map((r) => r.map((x) => [x.oid, x.value]))) ===
  JSON.stringify(b.map((r) => r.map((x) => [x.oid, x.value])));

/** Whether a signature on disk used another digest than `digest` (never for Edwards curves). */
export function digestDiffers(sigAlgOid: string, digest: string): boolean {
  const used = sigDigest(sigAlgOid);
  if (!used) return false;
  return used !== digest.toLowerCase().replace('_', '-');
}

/** The file's encoding as Salt reports it: pem when it holds a PEM block, else der. */
export const fileEncoding = (path: string): string =>
  readFileSync(path).includes('-----BEGIN') ? 'pem' : 'der';

/** Salt's `_compare_cert`, on a certificate built from the arguments. */
export function certChanges(
  current: ParsedCert,
  built: ParsedCert,
  signingCert: ParsedCert | undefined,
  serialGiven: unknown,
  builtKey: KeyObject,
): Kwargs {
  const changes: Kwargs = {};
  if (serialGiven !== undefined && serialGiven !== null && built.serial !== current.serial) {
    changes.serial_number = serialGiven;
  }
  const der = (k: KeyObject) => k.export({ type: 'spki', format: 'der' });
  if (!der(builtKey).equals(der(current.publicKey))) changes.private_key = true;
  if (signingCert && !verifySigned(current, signingCert.publicKey)) changes.signing_private_key = true;
  if (!sameName(built.subject, current.subject)) changes.subject_name = nameString(built.subject);
  if (!sameName(built.issuer, current.issuer)) changes.issuer_name = nameString(built.issuer);
  const ext = extChanges(current.extensions, built.extensions);
  if (anyOf(ext)) changes.extensions = ext;
  return changes;
}

/** Salt's `_compare_csr`. */
export function csrChanges(current: ParsedCsr, built: ParsedCsr): Kwargs {
  const changes: Kwargs = {};
  if (!sameName(built.subject, current.subject)) changes.subject_name = nameString(built.subject);
  const ext = extChanges(current.extensions, built.extensions);
  if (anyOf(ext)) changes.extensions = ext;
  return changes;
}

/** Salt's `_compare_crl`: issuer, signer, revoked serials and their extensions, CRL extensions. */
export function crlChanges(current: ParsedCrl, built: ParsedCrl, signerPub: KeyObject): Kwargs {
  const changes: Kwargs = {};
  if (!sameName(built.issuer, current.issuer)) changes.issuer_name = nameString(built.issuer);
  if (!verifySigned(current, signerPub)) changes.public_key = true;
  const rev = { added: [] as string[], changed: [] as string[], removed: [] as string[] };
  for (const r of built.revoked) {
    const cur = current.revoked.find((x) => x.serial === r.serial);
    if (!cur) {
      rev.added.push(dec2hex(r.serial));
      continue;
    }
    for (const e of r.extensions) {
      const c = cur.extensions.find((x) => x.oid === e.oid);
      if (!c || !sameExt(c, e)) rev.changed.push(dec2hex(r.serial));
    }
    for (const c of cur.extensions) {
      if (!r.extensions.some((x) => x.oid === c.oid)) rev.changed.push(dec2hex(r.serial));
    }
  }
  for (const c of current.revoked) {
    if (!built.revoked.some((r) => r.serial === c.serial)) rev.removed.push(dec2hex(c.serial));
  }
  if (anyOf(rev)) changes.revocations = rev;
  const ext = extChanges(current.extensions, built.extensions);
  if (anyOf(ext)) changes.extensions = ext;
  return changes;
}
