/**
 * Building and signing a certificate revocation list from Salt's arguments (x509_v2's
 * `build_crl`): the revoked entries (by serial number or certificate, with revocation dates and
 * entry extensions), the validity, the CRL extensions, the issuer from the signing certificate.
 */
import type { KeyObject } from 'node:crypto';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { parseTime, serialNumber } from './_x509-build.js';
import { buildCrlExtension, CRL_ENTRY_EXTS, CRL_EXTS } from './_x509-crl-ext.js';
import { ctx, derBits, derInt, derTime, seq } from './_x509-der.js';
import { type Extension, extensionDer } from './_x509-ext.js';
import { loadPrivateKey, samePublicKey } from './_x509-keys.js';
import { loadCert } from './_x509-parse.js';
import { signer } from './_x509-sign.js';

type Kwargs = Record<string, unknown>;

/** What create_crl takes for the list itself. */
export interface CrlRequest {
  signingPrivateKey: string;
  revoked: unknown;
  signingCert?: string | null | undefined;
  passphrase?: string | null | undefined;
  includeExpired: boolean;
  daysValid: number;
  extensions?: unknown;
  digest: string;
  /** Names of extensions Salt would skip with a warning. */
  ignored?: string[];
}

const isDict = (v: unknown): v is Kwargs => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Salt's older forms of a revoked entry (a one-key dict of a list, `reason`) in today's form. */
export function normalizeRevoked(revoked: unknown): Kwargs[] {
  if (!Array.isArray(revoked)) throw new SALT_ERR_INVOCATION('revoked must be a list of dicts');
  return revoked.map((rev) => {
    if (!isDict(rev)) throw new SALT_ERR_INVOCATION('revoked must be a list of dicts');
    let out: Kwargs = { ...rev };
    const keys = Object.keys(rev);
    const only = keys.length === 1 ? rev[keys[0] ?? ''] : undefined;
    if (Array.isArray(only)) out = Object.assign({}, ...only.filter(isDict));
    if ('reason' in out) {
      const exts = isDict(out.extensions) ? { ...out.extensions } : {};
      exts.CRLReason = out.reason;
      delete out.reason;
      out.extensions = exts;
    }
    return out;
  });
}

function revokedEntry(rev: Kwargs, includeExpired: boolean, ignored: string[]): Buffer | null {
  let notAfter = 'not_after' in rev ? parseTime(rev.not_after) : undefined;
  let serial: unknown = rev.serial_number;
  if ('certificate' in rev) {
    const cert = loadCert(String(rev.certificate));
    serial = cert.serial;
    notAfter = cert.notAfter;
  }
  if (serial === undefined || serial === null || serial === 0 || serial === 0n || serial === '') {
    throw new SALT_ERR_INVOCATION('Need serial_number or certificate');
  }
  if (notAfter && !includeExpired && Date.now() > notAfter.getTime()) return null;
  const when = 'revocation_date' in rev ? parseTime(rev.revocation_date) : new Date();
  const exts: Extension[] = [];
  for (const [name, v] of Object.entries(isDict(rev.extensions) ? rev.extensions : {})) {
    if (!CRL_ENTRY_EXTS.some(([n]) => n === name)) {
      ignored.push(name);
      continue;
    }
    exts.push(buildCrlExtension(name, v, {}, CRL_ENTRY_EXTS));
  }
  return seq(
    derInt(serialNumber(serial)),
    derTime(when),
    ...(exts.length ? [seq(...exts.map(extensionDer))] : []),
  );
}

/** The signed CRL (DER) Salt's `create_crl` makes. */
export function buildCrl(r: CrlRequest): Buffer {
  const cert = r.signingCert ? loadCert(r.signingCert) : undefined;
  const key = loadPrivateKey(r.signingPrivateKey, r.passphrase ?? undefined);
  if (cert && !samePublicKey(cert.publicKey, key)) {
    throw new SALT_ERR_INVOCATION("Signing private key does not match the certificate's public key");
  }
  const ignored = r.ignored ?? [];
  const now = new Date();
  const entries = normalizeRevoked(r.revoked)
    .map((rev) => revokedEntry(rev, r.includeExpired, ignored))
    .filter((e): e is Buffer => e !== null);
  const exts: Extension[] = [];
  for (const [name, v] of Object.entries(isDict(r.extensions) ? r.extensions : {})) {
    if (!CRL_EXTS.some(([n]) => n === name)) {
      ignored.push(name);
      continue;
    }
    exts.push(buildCrlExtension(name, v, cert ? { caCert: cert } : {}, CRL_EXTS));
  }
  // Salt's library refuses to sign a CRL without an issuer, which only a signing cert gives
  if (!cert) throw new SALT_ERR_EXEC_COMMAND('A CRL must have an issuer name');
  return signCrl(key, r.digest, {
    v2: true,
    issuer: cert.subjectDer,
    thisUpdate: now,
    nextUpdate: new Date(now.getTime() + r.daysValid * 86_400_000),
    entries,
    extensions: exts.map(extensionDer),
  });
}

/** The parts of a CRL's to-be-signed list (RFC 5280 TBSCertList). */
export interface CrlParts {
  /** Whether it says version 2 (any extension needs it; pyOpenSSL's exports leave it out). */
  v2: boolean;
  /** The issuer's name (DER). */
  issuer: Buffer;
  thisUpdate: Date;
  nextUpdate: Date;
  /** The revokedCertificates entries (DER), none for an empty list. */
  entries: Buffer[];
  /** The crlExtensions (DER), none to leave them out. */
  extensions?: Buffer[];
}

/** Signs a CRL made of `p` with `key` (DER): the one CRL writer of the x509 and tls modules. */
export function signCrl(key: KeyObject, digest: string, p: CrlParts): Buffer {
  const s = signer(key, digest);
  const exts = p.extensions ?? [];
  const tbs = seq(
    ...(p.v2 ? [derInt(1)] : []),
    s.alg,
    p.issuer,
    derTime(p.thisUpdate),
    derTime(p.nextUpdate),
    ...(p.entries.length ? [seq(...p.entries)] : []),
    ...(exts.length ? [ctx(0, true, seq(...exts))] : []),
  );
  return seq(tbs, s.alg, derBits(s.sign(tbs)));
}
