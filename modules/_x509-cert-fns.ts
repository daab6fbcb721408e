/**
 * The certificate, CSR and CRL functions of Salt's `x509` module (x509_v2): creating and
 * encoding certificates and CSRs, reading certificates, CSRs and CRLs into Salt's dicts,
 * checking signatures and expiry, signing policies. The x509 module spreads these in.
 */
import { existsSync, statSync } from 'node:fs';
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pyInt } from './_coerce.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { pyGlob } from './_py-glob.js';
import { buildCsr, planCertificate, signCertificate } from './_x509-build.js';
import { loadAnyPublicKey } from './_x509-keys.js';
import { NAME_ATTRS } from './_x509-name.js';
import { loadCert, loadCertChain, loadCrl, loadCsr } from './_x509-parse.js';
import { normalizePem, writePem } from './_x509-pem.js';
import { certificateDict, crlDict, csrDict } from './_x509-render.js';
import { checkDigest, verifySigned } from './_x509-sign.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;
type Kwargs = Record<string, unknown>;

const pem = (label: string, der: Buffer): string =>
  `-----BEGIN ${label}-----\n${(der.toString('base64').match(/.{1,64}/g) ?? []).join('\n')}\n-----END ${label}-----\n`;

/** Salt's signing policy `name` from pillar, else from the config (a list of dicts is merged). */
export async function signingPolicy(c: ExecContext, name: string | null | undefined): Promise<Kwargs> {
  if (name === null || name === undefined) return {};
  const pick = (v: unknown): unknown => (v && typeof v === 'object' ? (v as Kwargs)[name] : undefined);
  let p = pick(await c.call('pillar.get', ['x509_signing_policies', {}]));
  if (!p) p = pick(await c.call('config.get', ['x509_signing_policies', {}]));
  if (Array.isArray(p)) p = Object.assign({}, ...p.filter((x) => x && typeof x === 'object'));
  return p && typeof p === 'object' ? { ...(p as Kwargs) } : {};
}

/** Salt's `merge_signing_policy`: the policy wins, a subject merges where both are dicts or lists. */
export function mergePolicy(policy: Kwargs, kw: Kwargs): Kwargs {
  const out = { ...kw };
  const pol = { ...policy };
  if ('subject' in out) {
    if (NAME_ATTRS.some(([k]) => k in pol)) delete out.subject;
    else if ('subject' in pol && typeof pol.subject === 'object' && pol.subject !== null) {
      if (Array.isArray(pol.subject) && Array.isArray(out.subject))
        out.subject = [...pol.subject, ...out.subject];
      else if (
        !Array.isArray(pol.subject) &&
        typeof out.subject === 'object' &&
        !Array.isArray(out.subject)
      ) {
        out.subject = { ...(out.subject as Kwargs), ...(pol.subject as Kwargs) };
      } else return Object.assign(out, pol);
      delete pol.subject;
    }
  }
  return Object.assign(out, pol);
}

const ENCODINGS = ['der', 'pem', 'pkcs7_der', 'pkcs7_pem', 'pkcs12'];

/** Salt's `encode_certificate` for pem and der (PKCS#7 and PKCS#12 are refused). */
function encodeCert(
  certificate: string,
  encoding: string,
  appendCerts: unknown,
  privateKey: unknown,
  raw: boolean,
) {
  if (!ENCODINGS.includes(encoding)) {
    throw new SALT_ERR_EXEC_COMMAND(
      `Invalid value '${encoding}' for encoding. Valid: ${ENCODINGS.join(', ')}`,
    );
  }
  const more = appendCerts ? (Array.isArray(appendCerts) ? appendCerts : [appendCerts]) : [];
  if (encoding === 'der' && more.length)
    throw new SALT_ERR_INVOCATION('Cannot encode a certificate chain in DER');
  if (encoding !== 'pkcs12' && privateKey) {
    throw new SALT_ERR_INVOCATION('Embedding private keys is only supported for pkcs12 encoding');
  }
  if (encoding === 'pkcs12' && !privateKey) {
    throw new SALT_ERR_INVOCATION(
      'Creating a PKCS12-encoded certificate without embedded private key is unsupported',
    );
  }
  if (encoding !== 'pem' && encoding !== 'der') {
    throw new SALT_ERR_EXEC_COMMAND(`tsalt does not write ${encoding} certificates yet: use pem or der.`);
  }
  const certs = [loadCert(certificate), ...more.map((x) => loadCert(String(x)))];
  if (encoding === 'der') {
    const der = (certs[0] as { der: Buffer }).der;
    return raw ? der : der.toString('base64');
  }
  const text = certs.map((c) => pem('CERTIFICATE', c.der)).join('\n');
  return raw ? Buffer.from(text) : text;
}

function expiresIn(certificate: string, days: number): boolean {
  return loadCert(certificate).notAfter.getTime() <= Date.now() + days * 86_400_000;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function cnOf(certificate: string): Kwargs {
  const cn = loadCert(certificate)
    .subject.flat()
    .find((a) => a.oid === '2.5.4.3');
  return cn ? { cn: cn.value } : {};
}

export const certFunctions = {
  create_certificate: defineFunction({
    args: (z) =>
      z.object({
        ca_server: z.string().nullable().optional(),
        signing_policy: z.string().nullable().optional(),
        encoding: z.string().default('pem'),
        append_certs: z.unknown().optional(),
        pkcs12_passphrase: z.coerce.string().nullable().optional(),
        pkcs12_encryption_compat: z.boolean().default(false),
        pkcs12_friendlyname: z.string().nullable().optional(),
        path: z.string().nullable().optional(),
        overwrite: z.boolean().default(true),
        raw: z.boolean().default(false),
      }),
    varkw: true,
    doc: `Create an X.509 certificate, self-signed or signed by signing_cert's key.

signing_private_key: the key that signs (required locally).
signing_cert: the CA certificate; without it the certificate is self-signed.
public_key / private_key / csr: where the certified key comes from when signing_cert is set.
subject or CN, O, OU, C, ST, L, ...: the subject. Extensions by name: basicConstraints,
keyUsage, extendedKeyUsage, subjectKeyIdentifier, authorityKeyIdentifier, subjectAltName, ...
days_valid (365), not_before/not_after ("%Y-%m-%d %H:%M:%S"), serial_number, digest (sha256).
encoding: pem (default) or der; path: write it there.${cli('x509.create_certificate signing_private_key=/etc/pki/myca.key csr=/etc/pki/my.csr')}`,
    run: async (c, a, extra) => {
      let kw = cleanKwargs(extra.kwargs);
      if (!('days_valid' in kw) && !('not_after' in kw)) kw.days_valid = 365;
      const encoding = a.encoding ?? 'pem';
      if (!ENCODINGS.includes(encoding)) {
        throw new SALT_ERR_EXEC_COMMAND(
          `Invalid value '${encoding}' for encoding. Valid: ${ENCODINGS.join(', ')}`,
        );
      }
      const digest = String(kw.digest ?? 'sha256');
      checkDigest(digest);
      if (encoding === 'der' && a.append_certs)
        throw new SALT_ERR_INVOCATION('Cannot encode a certificate chain in DER');
      if (encoding === 'pkcs12' && !('private_key' in kw)) {
        throw new SALT_ERR_INVOCATION(
          'Creating a PKCS12-encoded certificate without embedded private key is unsupported',
        );
      }
      if (!('signing_private_key' in kw) && !a.ca_server) {
        throw new SALT_ERR_INVOCATION(
          'Creating a certificate locally at least requires a signing private key.',
        );
      }
      if (a.path && a.overwrite === false && existsSync(a.path)) {
        return `The file at ${a.path} exists and overwrite was set to false`;
      }
      if (a.ca_server) {
        if (!a.signing_policy) {
          throw new SALT_ERR_INVOCATION(
            'signing_policy must be specified to request a certificate from a remote ca_server',
          );
        }
        throw new SALT_ERR_EXEC_COMMAND('tsalt cannot request certificates from a remote ca_server yet');
      }
      kw = mergePolicy(await signingPolicy(c, a.signing_policy), kw);
      const der = signCertificate(planCertificate(kw), digest);
      const out = encodeCert(
        der.toString('base64'),
        encoding,
        a.append_certs,
        undefined,
        Boolean(a.path) || a.raw,
      );
      if (!a.path) return out;
      if (encoding === 'pem') return writePem(String(out), a.path, a.overwrite, 'CERTIFICATE');
      writePem(out, a.path, true, null);
      return `Certificate written to ${a.path}`;
    },
  }),
  encode_certificate: defineFunction({
    args: (z) =>
      z.object({
        certificate: z.string(),
        encoding: z.string().default('pem'),
        append_certs: z.unknown().optional(),
        private_key: z.string().nullable().optional(),
        private_key_passphrase: z.coerce.string().nullable().optional(),
        pkcs12_passphrase: z.coerce.string().nullable().optional(),
        pkcs12_encryption_compat: z.boolean().default(false),
        pkcs12_friendlyname: z.string().nullable().optional(),
        raw: z.boolean().default(false),
      }),
    doc: `Encode a certificate as PEM (optionally followed by append_certs) or base64 DER.${cli('x509.encode_certificate /etc/pki/my.crt pem /etc/pki/ca.crt')}`,
    run: (_c, a) => encodeCert(a.certificate, a.encoding ?? 'pem', a.append_certs, a.private_key, a.raw),
  }),
  create_csr: defineFunction({
    args: (z) =>
      z.object({
        private_key: z.string(),
        private_key_passphrase: z.coerce.string().nullable().optional(),
        digest: z.string().default('sha256'),
        encoding: z.string().default('pem'),
        path: z.string().nullable().optional(),
        raw: z.boolean().default(false),
      }),
    varkw: true,
    doc: `Create a certificate signing request for private_key, with a subject and extensions as
create_certificate takes them.${cli('x509.create_csr private_key=/etc/pki/my.key CN=www.example.com')}`,
    run: (_c, a, extra) => {
      const kw = cleanKwargs(extra.kwargs);
      const digest = String(kw.algorithm ?? a.digest ?? 'sha256');
      const encoding = a.encoding ?? 'pem';
      if (encoding !== 'der' && encoding !== 'pem') {
        throw new SALT_ERR_EXEC_COMMAND(`Invalid value '${encoding}' for encoding. Valid: der, pem`);
      }
      checkDigest(digest);
      const der = buildCsr(
        { ...kw, private_key: a.private_key, private_key_passphrase: a.private_key_passphrase },
        digest,
      );
      const text = pem('CERTIFICATE REQUEST', der);
      if (a.path) {
        if (encoding === 'pem') return writePem(text, a.path, true, 'CERTIFICATE REQUEST');
        writePem(der, a.path, true, null);
        return `CSR written to ${a.path}`;
      }
      if (a.raw) return encoding === 'pem' ? Buffer.from(text) : der;
      return encoding === 'pem' ? text : der.toString('base64');
    },
  }),
  encode_csr: defineFunction({
    args: (z) =>
      z.object({ csr: z.string(), encoding: z.string().default('pem'), raw: z.boolean().default(false) }),
    doc: `Encode a CSR as PEM or base64 DER.${cli('x509.encode_csr /etc/pki/my.csr der')}`,
    run: (_c, a) => {
      const encoding = a.encoding ?? 'pem';
      if (encoding !== 'der' && encoding !== 'pem') {
        throw new SALT_ERR_EXEC_COMMAND(`Invalid value '${encoding}' for encoding. Valid: der, pem`);
      }
      const der = loadCsr(a.csr).der;
      if (encoding === 'der') return a.raw ? der : der.toString('base64');
      const text = pem('CERTIFICATE REQUEST', der);
      return a.raw ? Buffer.from(text) : text;
    },
  }),
  read_certificate: defineFunction({
    args: (z) => z.object({ certificate: z.string() }),
    doc: `Read a certificate into a dict: subject, issuer, validity, fingerprints, extensions.${cli('x509.read_certificate /etc/pki/my.crt')}`,
    run: (c, a) => certificateDict(loadCert(a.certificate), c.opts.fips_mode === true),
  }),
  read_certificates: defineFunction({
    args: (z) => z.object({ glob_path: z.string() }),
    doc: `read_certificate for each file a glob matches.${cli('x509.read_certificates "/etc/pki/*.crt"')}`,
    run: async (c, a) => {
      const out: Kwargs = {};
      for (const p of await pyGlob(a.glob_path)) {
        if (!isFile(p)) continue;
        try {
          out[p] = certificateDict(loadCert(p), c.opts.fips_mode === true);
        } catch {
          // not a certificate
        }
      }
      return out;
    },
  }),
  read_csr: defineFunction({
    args: (z) => z.object({ csr: z.string() }),
    doc: `Read a CSR into a dict.${cli('x509.read_csr /etc/pki/my.csr')}`,
    run: (_c, a) => csrDict(loadCsr(a.csr)),
  }),
  read_crl: defineFunction({
    args: (z) => z.object({ crl: z.string() }),
    doc: `Read a certificate revocation list into a dict.${cli('x509.read_crl /etc/pki/my.crl')}`,
    run: (_c, a) => crlDict(loadCrl(a.crl)),
  }),
  verify_signature: defineFunction({
    args: (z) =>
      z.object({
        certificate: z.string(),
        signing_pub_key: z.string().nullable().optional(),
        signing_pub_key_passphrase: z.coerce.string().nullable().optional(),
      }),
    doc: `Whether signing_pub_key (a key or certificate; default the certificate itself) signed the certificate.${cli('x509.verify_signature /etc/pki/my.crt /etc/pki/ca.crt')}`,
    run: (_c, a) => {
      const cert = loadCert(a.certificate);
      const pub = loadAnyPublicKey(
        a.signing_pub_key || a.certificate,
        a.signing_pub_key_passphrase ?? undefined,
      );
      return verifySigned(cert, pub);
    },
  }),
  verify_crl: defineFunction({
    args: (z) => z.object({ crl: z.string(), cert: z.string() }),
    doc: `Whether a CRL was signed by the key of cert.${cli('x509.verify_crl /etc/pki/my.crl /etc/pki/ca.crt')}`,
    run: (_c, a) => verifySigned(loadCrl(a.crl), loadAnyPublicKey(a.cert)),
  }),
  expires: defineFunction({
    args: (z) => z.object({ certificate: z.string(), days: pyInt(z).default(0) }),
    doc: `Whether the certificate will have expired in days (default: now).${cli('x509.expires /etc/pki/my.crt days=7')}`,
    run: (_c, a) => expiresIn(a.certificate, a.days ?? 0),
  }),
  expired: defineFunction({
    args: (z) => z.object({ certificate: z.string() }),
    doc: `Whether the certificate has expired, with its path and CN.${cli('x509.expired /etc/pki/my.crt')}`,
    run: (_c, a) => ({
      ...(isFile(a.certificate) ? { path: a.certificate } : {}),
      ...cnOf(a.certificate),
      expired: expiresIn(a.certificate, 0),
    }),
  }),
  will_expire: defineFunction({
    args: (z) => z.object({ certificate: z.string(), days: pyInt(z) }),
    doc: `Whether the certificate expires within days, with its path and CN.${cli('x509.will_expire /etc/pki/my.crt days=30')}`,
    run: (_c, a) => ({
      check_days: a.days,
      ...(isFile(a.certificate) ? { path: a.certificate } : {}),
      ...cnOf(a.certificate),
      will_expire: expiresIn(a.certificate, a.days),
    }),
  }),
  get_pem_entries: defineFunction({
    args: (z) => z.object({ glob_path: z.string() }),
    doc: `get_pem_entry for each file a glob matches.${cli('x509.get_pem_entries "/etc/pki/*.crt"')}`,
    run: async (_c, a) => {
      const out: Kwargs = {};
      for (const p of await pyGlob(a.glob_path)) if (isFile(p)) out[p] = normalizePem(p);
      return out;
    },
  }),
  write_pem: defineFunction({
    args: (z) =>
      z.object({
        text: z.string(),
        path: z.string(),
        overwrite: z.boolean().default(true),
        pem_type: z.string().nullable().optional(),
      }),
    doc: `Write a PEM entry to a file (mode 0600); a certificate keeps a key and DH parameters already there when overwrite is False.${cli('x509.write_pem "-----BEGIN CERTIFICATE-----MIIGMzCCBBugA..." path=/etc/pki/mycert.crt')}`,
    run: (_c, a) => writePem(a.text, a.path, a.overwrite, a.pem_type ?? null),
  }),
  get_signing_policy: defineFunction({
    args: (z) => z.object({ signing_policy: z.string(), ca_server: z.string().nullable().optional() }),
    doc: `The signing policy of that name from pillar or config (x509_signing_policies).${cli('x509.get_signing_policy www')}`,
    run: async (c, a) => {
      if (a.ca_server) throw new SALT_ERR_EXEC_COMMAND('tsalt cannot query a remote ca_server yet');
      return signingPolicy(c, a.signing_policy);
    },
  }),
  sign_remote_certificate: defineFunction({
    args: (z) =>
      z.object({
        signing_policy: z.string().nullable(),
        kwargs: z.unknown(),
        get_signing_policy_only: z.boolean().default(false),
      }),
    varkw: true,
    doc: `Sign a certificate for a peer minion under one of this minion's signing policies.${cli("x509.sign_remote_certificate www kwargs='{CN: host}'")}`,
    run: async (c, a, extra) => {
      const policy = await signingPolicy(c, a.signing_policy);
      if (Object.keys(policy).length === 0) {
        return { data: null, errors: ['signing_policy must be specified and defined on signing minion'] };
      }
      if ('minions' in policy && !('__pub_id' in extra.kwargs)) {
        return { data: null, errors: ['minion sending this request could not be identified'] };
      }
      if ('minions' in policy)
        return { data: null, errors: ['tsalt cannot match minions for signing policies yet'] };
      if (a.get_signing_policy_only) {
        delete policy.signing_private_key;
        delete policy.signing_private_key_passphrase;
        if (policy.signing_cert) policy.signing_cert = loadCertChain(String(policy.signing_cert))[0]?.der;
        return { data: policy, errors: [] };
      }
      const kw = mergePolicy(policy, cleanKwargs((a.kwargs ?? {}) as Kwargs));
      delete kw.ca_server;
      try {
        return { data: signCertificate(planCertificate(kw), String(kw.digest ?? 'sha256')), errors: [] };
      } catch (err) {
        return { data: null, errors: [err instanceof Error ? err.message : String(err)] };
      }
    },
  }),
};
