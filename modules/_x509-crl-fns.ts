/**
 * The CRL-writing functions of Salt's `x509` module (x509_v2): `create_crl` and `encode_crl`.
 * The x509 module spreads these in; reading and verifying CRLs is with the certificate functions.
 */
import { defineFunction, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyInt } from './_coerce.js';
import { buildCrl } from './_x509-crl-build.js';
import { loadCrl } from './_x509-parse.js';
import { writePem } from './_x509-pem.js';
import { checkDigest } from './_x509-sign.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;

/** PEM text of a DER CRL. */
export const crlPem = (der: Buffer): string =>
  `-----BEGIN X509 CRL-----\n${(der.toString('base64').match(/.{1,64}/g) ?? []).join('\n')}\n-----END X509 CRL-----\n`;

function checkEncoding(encoding: string): void {
  if (encoding !== 'der' && encoding !== 'pem') {
    throw new SALT_ERR_EXEC_COMMAND(`Invalid value '${encoding}' for encoding. Valid: der, pem`);
  }
}

/** A CRL as Salt's encode_crl returns it: PEM text, base64 DER, or bytes when raw. */
function encoded(der: Buffer, encoding: string, raw: boolean): string | Buffer {
  if (encoding === 'der') return raw ? der : der.toString('base64');
  return raw ? Buffer.from(crlPem(der)) : crlPem(der);
}

/** Python's repr of a list of strings, as Salt prints unknown keywords. */
const pyList = (xs: string[]): string => `[${xs.map((x) => `'${x}'`).join(', ')}]`;

export const crlFunctions = {
  create_crl: defineFunction({
    args: (z) =>
      z.object({
        signing_private_key: z.string(),
        revoked: z.unknown(),
        signing_cert: z.string().nullable().optional(),
        signing_private_key_passphrase: z.coerce.string().nullable().optional(),
        include_expired: z.boolean().default(false),
        days_valid: pyInt(z).nullable().optional(),
        digest: z.string().default('sha256'),
        encoding: z.string().default('pem'),
        extensions: z.unknown().optional(),
        path: z.string().nullable().optional(),
        raw: z.boolean().default(false),
      }),
    varkw: true,
    doc: `Create a certificate revocation list signed by signing_private_key (and issued by signing_cert).

revoked: a list of dicts, each with serial_number or certificate, optionally revocation_date
("%Y-%m-%d %H:%M:%S"), not_after and extensions (CRLReason, invalidityDate, certificateIssuer).
include_expired: keep entries whose certificate has expired (default False).
days_valid: days until the next update (default 100).
extensions: cRLNumber, deltaCRLIndicator, issuingDistributionPoint, authorityKeyIdentifier, issuerAltName.
encoding: pem (default) or der (base64); path: write it there.${cli("x509.create_crl signing_cert=/etc/pki/ca.crt signing_private_key=/etc/pki/ca.key revoked=\"[{'certificate': '/etc/pki/certs/www1.crt', 'revocation_date': '2015-03-01 00:00:00'}]\"")}`,
    run: (c, a, extra) => {
      const unknown = Object.keys(extra.kwargs).filter((k) => !k.startsWith('_') && k !== 'text');
      if (unknown.length) throw new SALT_ERR_INVOCATION(`Unrecognized keyword arguments: ${pyList(unknown)}`);
      const encoding = a.encoding ?? 'pem';
      checkEncoding(encoding);
      const digest = a.digest ?? 'sha256';
      checkDigest(digest);
      const ignored: string[] = [];
      const der = buildCrl({
        signingPrivateKey: a.signing_private_key,
        revoked: a.revoked,
        signingCert: a.signing_cert,
        passphrase: a.signing_private_key_passphrase,
        includeExpired: a.include_expired ?? false,
        daysValid: a.days_valid ?? 100,
        extensions: a.extensions,
        digest,
        ignored,
      });
      for (const name of ignored) c.log.warn(`Ignoring invalid CRL extension: ${name}`);
      if (!a.path) return encoded(der, encoding, a.raw ?? false);
      if (encoding === 'pem') return writePem(crlPem(der), a.path, true, 'X509 CRL');
      writePem(der, a.path, true, null);
      return `CRL written to ${a.path}`;
    },
  }),
  encode_crl: defineFunction({
    args: (z) =>
      z.object({ crl: z.string(), encoding: z.string().default('pem'), raw: z.boolean().default(false) }),
    doc: `Encode a certificate revocation list as PEM or base64 DER.${cli('x509.encode_crl /etc/pki/my.crl der')}`,
    run: (_c, a) => {
      const encoding = a.encoding ?? 'pem';
      checkEncoding(encoding);
      return encoded(loadCrl(a.crl).der, encoding, a.raw ?? false);
    },
  }),
};
