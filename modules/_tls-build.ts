/**
 * The certificates, requests and keys Salt's `tls` module writes (pyOpenSSL's X509/X509Req as
 * salt/modules/tls.py fills them): its subject order, its serial numbers (a microsecond time and
 * five random bytes, recorded in `<cachedir>/<name>.serial`), its CA extensions. Signing and the
 * DER primitives are the x509 module's.
 */

import { createPublicKey, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { signCertificate } from './_x509-build.js';
import {
  ctx,
  derBits,
  derBool,
  derInt,
  derOctets,
  derOid,
  derTime,
  intBytes,
  seq,
  setOf,
} from './_x509-der.js';
import { buildExtension, type Extension, extensionDer, KEY_USAGE_BITS, keyIdentifier } from './_x509-ext.js';
import { type Name, nameDer } from './_x509-name.js';
import { checkDigest, signStructure } from './_x509-sign.js';

/** The subject fields tls functions take, in the order pyOpenSSL is given them. */
export interface TlsSubject {
  C: string;
  ST: string;
  L: string;
  O: string;
  OU?: string | null;
  CN: string;
  emailAddress?: string | null;
}

const OIDS: readonly (readonly [keyof TlsSubject, string])[] = [
  ['C', '2.5.4.6'],
  ['ST', '2.5.4.8'],
  ['L', '2.5.4.7'],
  ['O', '2.5.4.10'],
  ['OU', '2.5.4.11'],
  ['CN', '2.5.4.3'],
  ['emailAddress', '1.2.840.113549.1.9.1'],
];

/** The name of a subject (empty OU and emailAddress are left out, as Salt does). */
export function tlsName(s: TlsSubject): Name {
  return OIDS.filter(([k]) => s[k]).map(([k, oid]) => [{ oid, value: String(s[k]) }]);
}

/** A new RSA key of `bits` bits. */
export function rsaKey(bits: number): KeyObject {
  if (!Number.isInteger(bits) || bits < 512) throw new SALT_ERR_EXEC_COMMAND(`Invalid key size: ${bits}`);
  return generateKeyPairSync('rsa', { modulusLength: bits, publicExponent: 65537 }).privateKey;
}

/** Salt's `_new_serial`: "<fraction><seconds>_" and five random bytes, read as one integer. */
export function newSerial(cachedir: string, name: string): bigint {
  const now = Date.now() / 1000;
  const secs = Math.floor(now);
  const micro = `${(now - secs).toFixed(6)}${secs}`;
  const bytes = Buffer.concat([Buffer.from(`${micro}_`), randomBytes(5)]);
  const serial = BigInt(`0x${bytes.toString('hex')}`);
  mkdirSync(cachedir, { recursive: true });
  appendFileSync(`${cachedir}/${name}.serial`, serial.toString());
  return serial;
}

/** What one certificate needs. */
export interface CertSpec {
  serial: bigint;
  subject: Buffer;
  issuer: Buffer;
  days: number;
  publicKey: KeyObject;
  signingKey: KeyObject;
  extensions: Extension[];
  digest: string;
}

/** A signed v3 certificate (DER), valid from now for `days` days. */
export function certificate(c: CertSpec): Buffer {
  checkDigest(c.digest);
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const end = new Date(now.getTime() + c.days * 86_400_000);
  const tail = [
    c.issuer,
    seq(derTime(now), derTime(end)),
    c.subject,
    c.publicKey.export({ type: 'spki', format: 'der' }),
    ...(c.extensions.length ? [ctx(3, true, seq(...c.extensions.map(extensionDer)))] : []),
  ];
  return signCertificate(
    { head: [ctx(0, true, derInt(2)), derInt(c.serial)], tail, signingKey: c.signingKey },
    c.digest,
  );
}

/** The four extensions Salt puts on a CA: basicConstraints, keyUsage, subject and authority key ids. */
export function caExtensions(key: KeyObject, name: Buffer, serial: bigint): Extension[] {
  const pub = createPublicKey(key);
  const kid = keyIdentifier(pub);
  const usage = KEY_USAGE_BITS.map((b) => b === 'keyCertSign' || b === 'cRLSign');
  // keyCertSign is bit 5, cRLSign bit 6: one byte, one unused bit
  const ku = Buffer.from([usage.reduce((acc, on, i) => (on ? acc | (0x80 >> i) : acc), 0)]);
  return [
    { name: 'basicConstraints', oid: '2.5.29.19', critical: true, value: seq(derBool(true), derInt(0)) },
    { name: 'keyUsage', oid: '2.5.29.15', critical: true, value: derBits(ku, 1) },
    { name: 'subjectKeyIdentifier', oid: '2.5.29.14', critical: false, value: derOctets(kid) },
    {
      name: 'authorityKeyIdentifier',
      oid: '2.5.29.35',
      critical: false,
      value: seq(ctx(0, false, kid), ctx(1, true, ctx(4, true, name)), ctx(2, false, intBytes(serial))),
    },
  ];
}

/** Extensions from OpenSSL config strings (Salt's `get_extensions` profiles), never critical. */
export function confExtensions(conf: Record<string, unknown>, pub: KeyObject): Extension[] {
  return Object.entries(conf).map(([n, v]) => ({
    ...buildExtension(n, v, { subjectPub: pub }),
    critical: false,
  }));
}

/** A signed PKCS#10 request (DER) with the extensions requested. */
export function request(key: KeyObject, subject: Name, exts: Extension[], digest: string): Buffer {
  checkDigest(digest);
  const pub = createPublicKey(key);
  const attrs = exts.length
    ? [seq(derOid('1.2.840.113549.1.9.14'), setOf(seq(...exts.map(extensionDer))))]
    : [];
  const tbs = seq(
    derInt(0),
    nameDer(subject),
    pub.export({ type: 'spki', format: 'der' }),
    ctx(0, true, ...attrs),
  );
  return signStructure(tbs, key, digest);
}

/** A PEM text. */
export function pem(label: string, der: Buffer): string {
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}
