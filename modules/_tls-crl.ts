/**
 * The revocation lists Salt's `tls` module writes through pyOpenSSL's `CRL.export`: version 1,
 * no extensions, this update now and the next in 100 days, one entry (serial, date) per revoked
 * certificate; signed by the x509 module's CRL writer.
 */
import type { KeyObject } from 'node:crypto';
import { signCrl } from './_x509-crl-build.js';
import { derInt, derTime, seq } from './_x509-der.js';
import { checkDigest } from './_x509-sign.js';

/** A revoked certificate: its serial and when it was revoked. */
export interface Revocation {
  serial: bigint;
  date: Date;
}

/** A signed CRL (DER) of `issuer` (its name's DER). */
export function tlsCrl(issuer: Buffer, key: KeyObject, revoked: Revocation[], digest: string): Buffer {
  checkDigest(digest);
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  return signCrl(key, digest, {
    v2: false,
    issuer,
    thisUpdate: now,
    nextUpdate: new Date(now.getTime() + 100 * 86_400_000),
    entries: revoked.map((r) => seq(derInt(r.serial), derTime(r.date))),
  });
}
