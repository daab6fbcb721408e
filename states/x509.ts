/**
 * Salt's `x509` state module (x509_v2, Salt 3006.18): private keys, certificates, CSRs, CRLs and
 * PEM entries kept in files. Each reads what is on disk, reports Salt's changes dict, and re-issues
 * only when something that matters differs (see states/_x509-managed.ts for the shared run).
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyInt } from '../modules/_coerce.js';
import { buildCsr, planCertificate, signCertificate } from '../modules/_x509-build.js';
import { mergePolicy, signingPolicy } from '../modules/_x509-cert-fns.js';
import { buildCrl } from '../modules/_x509-crl-build.js';
import { readInt, readNode } from '../modules/_x509-der.js';
import { loadPrivateKey } from '../modules/_x509-keys.js';
import {
  loadCert,
  loadCertChain,
  loadCrl,
  loadCsr,
  parseCertDer,
  parseCrlDer,
  parseCsrDer,
} from '../modules/_x509-parse.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { certChanges, crlChanges, csrChanges, digestDiffers, fileEncoding } from './_x509-compare.js';
import { inspectKey, produceKey } from './_x509-key-state.js';
import { inspectLoaded, isSaltError, pyList, runManaged, splitFileArgs } from './_x509-managed.js';

type Kwargs = Record<string, unknown>;

/** The arguments that were given (Salt passes None for the others, which builders skip). */
const given = (kw: Kwargs): Kwargs =>
  Object.fromEntries(Object.entries(kw).filter(([, v]) => v !== undefined && v !== null));

const DAY = 86_400_000;

const private_key_managed = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      algo: z.string().default('rsa'),
      keysize: pyInt(z).nullable().optional(),
      passphrase: z.coerce.string().nullable().optional(),
      encoding: z.string().default('pem'),
      new: z.boolean().default(false),
      overwrite: z.boolean().default(false),
      pkcs12_encryption_compat: z.boolean().default(false),
    }),
  varkw: true,
  doc: `Manage a private key: created when missing, re-created when algo or keysize differ, re-encoded
when only encoding or passphrase differ; new: true makes a fresh key on every run. Mode 0400 by default.`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const kw = { ...extra.kwargs };
    const keysize = a.keysize ?? (kw.bits === undefined ? undefined : Number(kw.bits));
    for (const k of ['bits', 'cipher', 'verbose', 'text']) delete kw[k];
    const { fileArgs, rest } = splitFileArgs(kw);
    if (Object.keys(rest).length)
      throw new SALT_ERR_INVOCATION(`Unrecognized keyword arguments: ${pyList(Object.keys(rest))}`);
    if (!fileArgs.mode) fileArgs.mode = '0400';
    const algo = a.algo ?? 'rsa';
    if (keysize && (algo === 'ed25519' || algo === 'ed448')) {
      return {
        name: a.name,
        changes: {},
        result: false,
        comment: `keysize is an invalid parameter for ${algo}`,
      };
    }
    const opts = {
      name: a.name,
      algo,
      keysize,
      passphrase: a.passphrase ?? undefined,
      encoding: a.encoding ?? 'pem',
      new: a.new ?? false,
      overwrite: a.overwrite ?? false,
    };
    let loaded: KeyObject | undefined;
    return runManaged(ctx, {
      name: a.name,
      noun: 'private key',
      fileArgs,
      binary: opts.encoding !== 'pem',
      inspect: async (real, exists) => {
        const r = inspectKey(real, exists, opts);
        loaded = r.key;
        return { changes: r.changes, current: Boolean(r.key) };
      },
      produce: async (changes) => produceKey(changes, loaded, opts),
    });
  },
});

const certificate_managed = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      days_remaining: pyInt(z).nullable().optional(),
      ca_server: z.string().nullable().optional(),
      signing_policy: z.string().nullable().optional(),
      encoding: z.string().default('pem'),
      append_certs: z.unknown().optional(),
      copypath: z.string().nullable().optional(),
      prepend_cn: z.boolean().default(false),
      digest: z.string().default('sha256'),
      signing_private_key: z.string().nullable().optional(),
      signing_private_key_passphrase: z.coerce.string().nullable().optional(),
      signing_cert: z.string().nullable().optional(),
      public_key: z.string().nullable().optional(),
      private_key: z.string().nullable().optional(),
      private_key_passphrase: z.coerce.string().nullable().optional(),
      csr: z.string().nullable().optional(),
      subject: z.unknown().optional(),
      serial_number: z.unknown().optional(),
      not_before: z.string().nullable().optional(),
      not_after: z.string().nullable().optional(),
      days_valid: pyInt(z).nullable().optional(),
      pkcs12_passphrase: z.coerce.string().nullable().optional(),
      pkcs12_encryption_compat: z.boolean().default(false),
      pkcs12_friendlyname: z.string().nullable().optional(),
    }),
  varkw: true,
  doc: `Manage a certificate: issued when missing, re-issued when it expires within days_remaining (90)
or its key, signer, subject, issuer, serial_number, digest or extensions differ from the arguments.`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const kw = { ...extra.kwargs };
    const digest = String(kw.algorithm ?? a.digest ?? 'sha256');
    delete kw.algorithm;
    const { fileArgs, rest: certArgs } = splitFileArgs(kw);
    const daysValid = a.days_valid ?? (a.not_after ? undefined : 365);
    const daysRemaining = a.days_remaining ?? 90;
    const encoding = a.encoding ?? 'pem';
    const append = a.append_certs ? (Array.isArray(a.append_certs) ? a.append_certs : [a.append_certs]) : [];
    const certKw = given({
      signing_private_key: a.signing_private_key,
      signing_private_key_passphrase: a.signing_private_key_passphrase,
      signing_cert: a.signing_cert,
      public_key: a.public_key,
      private_key: a.private_key,
      private_key_passphrase: a.private_key_passphrase,
      csr: a.csr,
      subject: a.subject,
      serial_number: a.serial_number,
      not_before: a.not_before,
      not_after: a.not_after,
      days_valid: daysValid,
      ...certArgs,
    });
    return runManaged(ctx, {
      name: a.name,
      noun: 'certificate',
      fileArgs,
      binary: encoding !== 'pem' && encoding !== 'pkcs7_pem',
      inspect: (real, exists, replaced) =>
        inspectLoaded(a.name, { real, exists, replaced }, loadCertChain, async (chain, changes) => {
          const cur = chain[0];
          if (!cur) return false;
          if (encoding !== fileEncoding(real)) changes.encoding = encoding;
          if (cur.notAfter.getTime() < Date.now() + daysRemaining * DAY) changes.expiration = true;
          const want = append.map((c) => loadCert(String(c)).der);
          const have = chain.slice(1).map((c) => c.der);
          if (want.length !== have.length || want.some((d, i) => !d.equals(have[i] ?? Buffer.alloc(0)))) {
            changes.additional_certs = true;
          }
          const merged = mergePolicy(await signingPolicy(ctx, a.signing_policy), { digest, ...certKw });
          const plan = planCertificate(merged);
          const built = parseCertDer(signCertificate(plan, String(merged.digest ?? digest)));
          if (digestDiffers(cur.sigAlgOid, String(merged.digest ?? digest))) changes.digest = digest;
          Object.assign(changes, certChanges(cur, built, plan.signingCert, a.serial_number, built.publicKey));
          return true;
        }),
      produce: async (changes) => {
        const meta = new Set(['additional_certs', 'encoding', 'pkcs12_friendlyname']);
        if (Object.keys(changes).every((k) => meta.has(k))) {
          return String(
            await ctx.call('x509.encode_certificate', [], {
              certificate: a.name,
              encoding,
              append_certs: append,
            }),
          );
        }
        return String(
          await ctx.call('x509.create_certificate', [], {
            ...given({ ca_server: a.ca_server, signing_policy: a.signing_policy }),
            encoding,
            append_certs: append,
            digest,
            ...certKw,
          }),
        );
      },
    });
  },
});

const csr_managed = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      private_key: z.string(),
      private_key_passphrase: z.coerce.string().nullable().optional(),
      digest: z.string().default('sha256'),
      encoding: z.string().default('pem'),
      subject: z.unknown().optional(),
    }),
  varkw: true,
  doc: 'Manage a certificate signing request: re-created when its key, subject, digest or extensions differ.',
  async run(ctx, a, extra): Promise<StateReturn> {
    const kw = { ...extra.kwargs };
    const digest = String(kw.algorithm ?? a.digest ?? 'sha256');
    delete kw.algorithm;
    const { fileArgs, rest } = splitFileArgs(kw);
    const encoding = a.encoding ?? 'pem';
    const csrKw = given({
      private_key: a.private_key,
      private_key_passphrase: a.private_key_passphrase,
      subject: a.subject,
      ...rest,
    });
    return runManaged(ctx, {
      name: a.name,
      noun: 'certificate signing request',
      fileArgs,
      binary: encoding === 'der',
      inspect: (real, exists, replaced) =>
        inspectLoaded(a.name, { real, exists, replaced }, loadCsr, async (cur, changes) => {
          if (digestDiffers(cur.sigAlgOid, digest)) changes.digest = digest;
          if (encoding !== fileEncoding(real)) changes.encoding = encoding;
          const built = parseCsrDer(buildCsr(csrKw, digest));
          const der = (k: KeyObject) => k.export({ type: 'spki', format: 'der' });
          if (!der(built.publicKey).equals(der(cur.publicKey))) changes.private_key = true;
          Object.assign(changes, csrChanges(cur, built));
          return true;
        }),
      produce: async (changes) => {
        if (Object.keys(changes).every((k) => k === 'encoding')) {
          return String(await ctx.call('x509.encode_csr', [], { csr: a.name, encoding }));
        }
        return String(await ctx.call('x509.create_csr', [], { ...csrKw, digest, encoding }));
      },
    });
  },
});

const crl_managed = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      signing_private_key: z.string(),
      revoked: z.unknown(),
      days_remaining: pyInt(z).nullable().optional(),
      signing_cert: z.string().nullable().optional(),
      signing_private_key_passphrase: z.coerce.string().nullable().optional(),
      include_expired: z.boolean().default(false),
      days_valid: pyInt(z).nullable().optional(),
      digest: z.string().default('sha256'),
      encoding: z.string().default('pem'),
      extensions: z.unknown().optional(),
    }),
  varkw: true,
  doc: `Manage a certificate revocation list: re-created when it expires within days_remaining (30), or the
revoked list, its entries' extensions, the CRL extensions, the issuer or the signer differ. cRLNumber: auto
counts up on each re-creation.`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const kw = { ...extra.kwargs };
    delete kw.text;
    const { fileArgs, rest } = splitFileArgs(kw);
    if (Object.keys(rest).length)
      throw new SALT_ERR_INVOCATION(`Unrecognized keyword arguments: ${pyList(Object.keys(rest))}`);
    const encoding = a.encoding ?? 'pem';
    const digest = a.digest ?? 'sha256';
    const daysValid = a.days_valid ?? 100;
    const daysRemaining = a.days_remaining ?? 30;
    const extensions: Kwargs =
      a.extensions && typeof a.extensions === 'object' ? { ...(a.extensions as Kwargs) } : {};
    const auto = extensions.cRLNumber === 'auto';
    let currentNumber: bigint | undefined;
    const request = (exts: Kwargs) => ({
      signingPrivateKey: a.signing_private_key,
      revoked: a.revoked,
      signingCert: a.signing_cert,
      passphrase: a.signing_private_key_passphrase,
      includeExpired: a.include_expired ?? false,
      daysValid,
      extensions: exts,
      digest,
    });
    return runManaged(ctx, {
      name: a.name,
      noun: 'certificate revocation list',
      fileArgs,
      binary: encoding === 'der',
      inspect: (real, exists, replaced) =>
        inspectLoaded(a.name, { real, exists, replaced }, loadCrl, async (cur, changes) => {
          if (digestDiffers(cur.sigAlgOid, digest)) changes.digest = digest;
          if (encoding !== fileEncoding(real)) changes.encoding = encoding;
          const next = cur.nextUpdate?.getTime() ?? 0;
          if (daysRemaining && next < Date.now() + daysRemaining * DAY) changes.expiration = true;
          const num = cur.extensions.find((e) => e.oid === '2.5.29.20');
          if (num) currentNumber = readInt(readNode(num.value));
          const exts = { ...extensions };
          if (auto) delete exts.cRLNumber;
          const built = parseCrlDer(buildCrl(request(exts)));
          const pub = createPublicKey(
            loadPrivateKey(a.signing_private_key, a.signing_private_key_passphrase ?? undefined),
          );
          Object.assign(changes, crlChanges(cur, built, pub));
          const ext = changes.extensions as
            | { added: string[]; changed: string[]; removed: string[] }
            | undefined;
          if (auto && ext) {
            ext.removed = ext.removed.filter((n) => n !== 'cRLNumber');
            if (!ext.added.length && !ext.changed.length && !ext.removed.length) delete changes.extensions;
          }
          // Salt tests the CRL object for truth, and a CRL is false when it revokes nothing
          return cur.revoked.length > 0;
        }),
      produce: async (changes) => {
        if (Object.keys(changes).every((k) => k === 'encoding')) {
          return String(await ctx.call('x509.encode_crl', [], { crl: a.name, encoding }));
        }
        const exts = { ...extensions };
        if (auto) exts.cRLNumber = currentNumber === undefined ? 1 : Number(currentNumber + 1n);
        return String(
          await ctx.call('x509.create_crl', [], {
            signing_private_key: a.signing_private_key,
            revoked: a.revoked,
            ...given({
              signing_cert: a.signing_cert,
              signing_private_key_passphrase: a.signing_private_key_passphrase,
            }),
            include_expired: a.include_expired ?? false,
            days_valid: daysValid,
            digest,
            encoding,
            extensions: exts,
          }),
        );
      },
    });
  },
});

const pem_managed = defineState({
  args: (z) => z.object({ name: z.string(), text: z.string() }),
  varkw: true,
  doc: 'Manage the contents of a PEM file: the first PEM entry of text, written through file.managed.',
  async run(ctx, a, extra): Promise<StateReturn> {
    const { fileArgs, rest } = splitFileArgs(extra.kwargs);
    if (Object.keys(rest).length)
      throw new SALT_ERR_INVOCATION(`Unrecognized keyword arguments: ${pyList(Object.keys(rest))}`);
    let contents: string;
    try {
      contents = String(await ctx.call('x509.get_pem_entry', [], { text: a.text }));
    } catch (err) {
      if (!isSaltError(err)) throw err;
      return { name: a.name, result: false, comment: err.message, changes: {} };
    }
    return ctx.state('file.managed', { name: a.name, ...fileArgs, contents });
  },
});

export default defineStateModule({
  name: 'x509',
  doc: 'X.509 private keys, certificates, CSRs, CRLs and PEM files (Salt x509_v2).',
  functions: { private_key_managed, certificate_managed, csr_managed, crl_managed, pem_managed },
});
