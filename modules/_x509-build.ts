/**
 * Building and signing certificates and CSRs from Salt's keyword arguments (x509_v2's
 * `build_crt` and `build_csr`): the subject from a dict of short names, a string or a list, the
 * validity, the serial number and the extensions by Salt's names.
 */
import { createPublicKey, type KeyObject, randomBytes } from 'node:crypto';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { ctx, derBits, derInt, derOid, derTime, seq, setOf } from './_x509-der.js';
import {
  buildExtensions,
  CERT_EXTS,
  CSR_FORBIDDEN,
  EXTENSIONS,
  type Extension,
  extensionDer,
} from './_x509-ext.js';
import { loadPrivateKey, loadPublicKey, samePublicKey } from './_x509-keys.js';
import { buildName, nameDer } from './_x509-name.js';
import { loadCert, loadCsr, type ParsedCert } from './_x509-parse.js';
import { signer, signStructure } from './_x509-sign.js';

type Kwargs = Record<string, unknown>;

/** A serial number from Salt's forms: an integer, hex (with or without colons), or a random one. */
export function serialNumber(sn: unknown): bigint {
  if (sn === undefined || sn === null) return BigInt(`0x${randomBytes(20).toString('hex')}`) >> 1n;
  if (typeof sn === 'number' && Number.isInteger(sn)) return BigInt(sn);
  if (typeof sn === 'bigint') return sn;
  const hex = String(sn).replace(/:/g, '');
  if (typeof sn === 'string' && /^([0-9a-fA-F]{2})+$/.test(hex)) return BigInt(`0x${hex}`);
  throw new SALT_ERR_EXEC_COMMAND(`Could not parse serial number ${String(sn)}`);
}

/** A `YYYY-MM-DD HH:MM:SS` time (UTC). */
export function parseTime(s: unknown): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(String(s));
  if (!m) {
    throw new SALT_ERR_INVOCATION(`time data '${String(s)}' does not match format '%Y-%m-%d %H:%M:%S'`);
  }
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number);
  return new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, se));
}

/** What a built certificate needs for signing, and the key it certifies. */
export interface CertPlan {
  /** The to-be-signed fields before and after the signature algorithm. */
  head: Buffer[];
  tail: Buffer[];
  signingKey: KeyObject;
  privateKey?: KeyObject;
  signingCert?: ParsedCert;
}

const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));

/** The to-be-signed certificate Salt's `build_crt` describes, and the keys around it. */
export function planCertificate(kw: Kwargs): CertPlan {
  const signingKey = loadPrivateKey(String(kw.signing_private_key), str(kw.signing_private_key_passphrase));
  const serial = serialNumber(kw.serial_number);
  const csr = kw.csr ? loadCsr(String(kw.csr)) : undefined;
  const signingCert = kw.signing_cert ? loadCert(String(kw.signing_cert)) : undefined;
  let pub: KeyObject;
  let privateKey: KeyObject | undefined;
  if (!signingCert) pub = createPublicKey(signingKey);
  else if (kw.private_key) {
    privateKey = loadPrivateKey(String(kw.private_key), str(kw.private_key_passphrase));
    pub = createPublicKey(privateKey);
  } else if (kw.public_key) pub = loadPublicKey(String(kw.public_key));
  else if (csr) pub = csr.publicKey;
  else {
    throw new SALT_ERR_INVOCATION(
      'This certificate is not self-signed (signing_cert is set) and thus needs public_key, private_key or csr to derive public key to sign',
    );
  }
  if (signingCert && !samePublicKey(signingCert.publicKey, signingKey)) {
    throw new SALT_ERR_INVOCATION("Signing private key does not match the certificate's public key");
  }
  const subject = nameDer(buildName(kw.subject || kw));
  const issuer = signingCert ? signingCert.subjectDer : subject;
  const notBefore = kw.not_before ? parseTime(kw.not_before) : new Date();
  const days = Number(kw.days_valid ?? 30);
  const notAfter = kw.not_after ? parseTime(kw.not_after) : new Date(Date.now() + days * 86_400_000);
  const exts: Extension[] = buildExtensions(kw, CERT_EXTS, {
    subjectPub: pub,
    ...(signingCert ? { caCert: signingCert } : { caPub: pub }),
  });
  if (csr) {
    for (const [name, oid] of EXTENSIONS) {
      if (exts.some((e) => e.name === name) || !CERT_EXTS.has(name) || CSR_FORBIDDEN.has(name)) continue;
      const e = csr.extensions.find((x) => x.oid === oid);
      if (e) exts.push({ name, ...e });
    }
  }
  const spki = pub.export({ type: 'spki', format: 'der' });
  const tail = [
    issuer,
    seq(derTime(notBefore), derTime(notAfter)),
    subject,
    spki,
    ...(exts.length ? [ctx(3, true, seq(...exts.map(extensionDer)))] : []),
  ];
  return {
    head: [ctx(0, true, derInt(2)), derInt(serial)],
    tail,
    signingKey,
    ...(privateKey ? { privateKey } : {}),
    ...(signingCert ? { signingCert } : {}),
  };
}

/** The signed certificate (DER) of a plan, with the signature algorithm in both places. */
export function signCertificate(plan: CertPlan, digest: string): Buffer {
  const s = signer(plan.signingKey, digest);
  const tbs = seq(...plan.head, s.alg, ...plan.tail);
  return seq(tbs, s.alg, derBits(s.sign(tbs)));
}

/** A signed CSR (DER) as Salt's `create_csr` makes it. */
export function buildCsr(kw: Kwargs, digest: string): Buffer {
  const key = loadPrivateKey(String(kw.private_key), str(kw.private_key_passphrase));
  const pub = createPublicKey(key);
  const subject = nameDer(buildName(kw.subject || kw));
  const allowed = new Set([...CERT_EXTS].filter((n) => !CSR_FORBIDDEN.has(n)));
  const exts = buildExtensions(kw, allowed, { subjectPub: pub });
  const attrs = exts.length
    ? [seq(derOid('1.2.840.113549.1.9.14'), setOf(seq(...exts.map(extensionDer))))]
    : [];
  const tbs = seq(derInt(0), subject, pub.export({ type: 'spki', format: 'der' }), ctx(0, true, ...attrs));
  return signStructure(tbs, key, digest);
}
