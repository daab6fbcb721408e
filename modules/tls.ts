/**
 * Salt's `tls` execution module (salt/modules/tls.py, Salt 3006.18): a small CA under
 * `{cacert_path}/{ca_name}` (default base `/etc/pki`, or the `ca.cert_base_path` option), requests,
 * CA-signed and self-signed certificates, revocation lists, PKCS#12 bundles and certificate
 * facts. Certificates are built with the x509 module's DER code; PKCS#12 through `openssl`.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { z as Zod } from 'zod';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyFlag, pyInt } from './_coerce.js';
import { createCa, createCsr, createSelfSigned, createSigned } from './_tls-create.js';
import { basePath, rememberBase } from './_tls-paths.js';
import { extensionProfile } from './_tls-profile.js';
import { certInfo, emptyCrl, expirationDate, pkcs12, revoke, validate } from './_tls-read.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;
const optStr = (z: typeof Zod) => z.coerce.string().nullable().optional();

/** A path, or its content when as_text; Salt's ValueError when it is missing. */
function pathOrText(path: string, asText: boolean, what: string): string {
  if (!existsSync(path)) throw new SALT_ERR_EXEC_COMMAND(what);
  return asText ? readFileSync(path, 'utf8') : path;
}

async function caPaths(ctx: ExecContext, caName: string, cacertPath: unknown, caFilename: unknown) {
  rememberBase(ctx, cacertPath);
  const base = await basePath(ctx);
  return `${base}/${caName}/${caFilename || `${caName}_ca_cert`}.crt`;
}

/** get_ca_signed_cert and get_ca_signed_key: `{base}/{ca_name}/certs/{filename or CN}.{ext}`. */
function signedFileFunction(filenameArg: 'cert_filename' | 'key_filename', ext: 'crt' | 'key', what: string) {
  return defineFunction({
    args: (z) =>
      z.object({
        ca_name: z.coerce.string(),
        CN: z.coerce.string().default('localhost'),
        as_text: pyFlag(z, false),
        cacert_path: optStr(z),
        [filenameArg]: optStr(z),
      }),
    doc: `${what}, or its content with as_text=True.${cli(`tls.get_ca_signed_${ext === 'crt' ? 'cert' : 'key'} test_ca CN=localhost`)}`,
    run: async (ctx, a) => {
      rememberBase(ctx, a.cacert_path);
      const file = a[filenameArg] || a.CN;
      const p = `${await basePath(ctx)}/${a.ca_name}/certs/${String(file)}.${ext}`;
      return pathOrText(p, a.as_text === true, `Certificate does not exists for ${a.CN}`);
    },
  });
}

export default defineModule({
  name: 'tls',
  doc: 'A self-signed CA and its certificates, requests and CRLs (Salt tls module).',
  functions: {
    cert_base_path: defineFunction({
      args: (z) => z.object({ cacert_path: optStr(z) }),
      doc: `The base path of certificates: the argument, the one set_ca_path set, or ca.cert_base_path.${cli('tls.cert_base_path')}`,
      run: (ctx, a) => basePath(ctx, a.cacert_path),
    }),
    set_ca_path: defineFunction({
      args: (z) => z.object({ cacert_path: z.coerce.string().nullable() }),
      doc: `Use this base path for the rest of the job; returns the base path.${cli('tls.set_ca_path /etc/certs')}`,
      run: (ctx, a) => {
        rememberBase(ctx, a.cacert_path);
        return basePath(ctx);
      },
    }),
    maybe_fix_ssl_version: defineFunction({
      args: (z) => z.object({ ca_name: z.coerce.string(), cacert_path: optStr(z), ca_filename: optStr(z) }),
      doc: `Old Salt wrote CA certificates with a wrong X.509 version; tsalt never does, so this only reads the CA.${cli('tls.maybe_fix_ssl_version test_ca /etc/certs')}`,
      run: async (ctx, a) => {
        const p = await caPaths(ctx, a.ca_name, a.cacert_path, a.ca_filename);
        if (!existsSync(p)) throw new SALT_ERR_EXEC_COMMAND(`[Errno 2] No such file or directory: '${p}'`);
        return null;
      },
    }),
    ca_exists: defineFunction({
      args: (z) => z.object({ ca_name: z.coerce.string(), cacert_path: optStr(z), ca_filename: optStr(z) }),
      doc: `Whether the CA's certificate exists.${cli('tls.ca_exists test_ca /etc/certs')}`,
      run: async (ctx, a) => existsSync(await caPaths(ctx, a.ca_name, a.cacert_path, a.ca_filename)),
    }),
    get_ca: defineFunction({
      args: (z) =>
        z.object({ ca_name: z.coerce.string(), as_text: pyFlag(z, false), cacert_path: optStr(z) }),
      doc: `The CA certificate's path, or its content with as_text=True.${cli('tls.get_ca test_ca as_text=False cacert_path=/etc/certs')}`,
      run: async (ctx, a) =>
        pathOrText(
          await caPaths(ctx, a.ca_name, a.cacert_path, null),
          a.as_text,
          `Certificate does not exist for ${a.ca_name}`,
        ),
    }),
    get_ca_signed_cert: signedFileFunction('cert_filename', 'crt', "A signed certificate's path"),
    get_ca_signed_key: signedFileFunction('key_filename', 'key', "A signed certificate's key path"),
    validate: defineFunction({
      args: (z) =>
        z.object({
          cert: z.coerce.string(),
          ca_name: z.coerce.string(),
          crl_file: z.coerce.string().nullable(),
        }),
      doc: `Validate a certificate against its CA and a CRL.${cli('tls.validate /etc/pki/koji/certs/x.crt koji /etc/pki/koji/crl.pem')}`,
      run: (ctx, a) => validate(ctx, a.cert, a.ca_name, a.crl_file ?? null),
    }),
    get_expiration_date: defineFunction({
      args: (z) => z.object({ cert: z.coerce.string(), date_format: z.string().default('%Y-%m-%d') }),
      doc: `A certificate's expiration date (UTC) in a strftime format.${cli('tls.get_expiration_date /path/to/foo.crt')}`,
      run: (ctx, a) => expirationDate(ctx, a.cert, a.date_format),
    }),
    create_ca: defineFunction({
      args: (z) =>
        z.object({
          ca_name: z.coerce.string(),
          bits: pyInt(z).default(2048),
          days: pyInt(z).default(365),
          CN: z.coerce.string().default('localhost'),
          C: z.coerce.string().default('US'),
          ST: z.coerce.string().default('Utah'),
          L: z.coerce.string().default('Salt Lake City'),
          O: z.coerce.string().default('SaltStack'),
          OU: optStr(z),
          emailAddress: optStr(z),
          fixmode: pyFlag(z, false),
          cacert_path: optStr(z),
          ca_filename: optStr(z),
          digest: z.string().default('sha256'),
          onlyif: z.unknown().optional(),
          unless: z.unknown().optional(),
          replace: pyFlag(z, false),
        }),
      doc: `Create a CA: an RSA key and a self-signed CA certificate under {cacert_path}/{ca_name}.${cli('tls.create_ca test_ca')}`,
      run: async (ctx, a) => {
        if (await skipped(ctx, a.onlyif, a.unless)) return null;
        return createCa(ctx, {
          ...a,
          bits: a.bits ?? 2048,
          days: a.days ?? 365,
          replace: a.replace || a.fixmode,
        });
      },
    }),
    get_extensions: defineFunction({
      args: (z) => z.object({ cert_type: z.coerce.string() }),
      doc: `The csr and cert extensions of a certificate type (server, client, or one in pillar tls.extensions).${cli('tls.get_extensions client')}`,
      run: (ctx, a) => extensionProfile(ctx, a.cert_type),
    }),
    create_csr: defineFunction({
      args: (z) =>
        z.object({
          ca_name: z.coerce.string(),
          bits: pyInt(z).default(2048),
          CN: z.coerce.string().default('localhost'),
          C: z.coerce.string().default('US'),
          ST: z.coerce.string().default('Utah'),
          L: z.coerce.string().default('Salt Lake City'),
          O: z.coerce.string().default('SaltStack'),
          OU: optStr(z),
          emailAddress: optStr(z),
          subjectAltName: z.unknown().optional(),
          cacert_path: optStr(z),
          ca_filename: optStr(z),
          csr_path: optStr(z),
          csr_filename: optStr(z),
          digest: z.string().default('sha256'),
          type_ext: pyFlag(z, false),
          cert_type: z.coerce.string().default('server'),
          replace: pyFlag(z, false),
        }),
      doc: `Create a key and a certificate request for a CA to sign.${cli('tls.create_csr test_ca CN=www.example.com')}`,
      run: (ctx, a) => createCsr(ctx, { ...a, bits: a.bits ?? 2048 }),
    }),
    create_self_signed_cert: defineFunction({
      args: (z) =>
        z.object({
          tls_dir: z.coerce.string().default('tls'),
          bits: pyInt(z).default(2048),
          days: pyInt(z).default(365),
          CN: z.coerce.string().default('localhost'),
          C: z.coerce.string().default('US'),
          ST: z.coerce.string().default('Utah'),
          L: z.coerce.string().default('Salt Lake City'),
          O: z.coerce.string().default('SaltStack'),
          OU: optStr(z),
          emailAddress: optStr(z),
          cacert_path: optStr(z),
          cert_filename: optStr(z),
          digest: z.string().default('sha256'),
          replace: pyFlag(z, false),
        }),
      doc: `Create a key and a self-signed certificate under {cacert_path}/{tls_dir}/certs.${cli('tls.create_self_signed_cert')}`,
      run: (ctx, a) => createSelfSigned(ctx, { ...a, bits: a.bits ?? 2048, days: a.days ?? 365 }),
    }),
    create_ca_signed_cert: defineFunction({
      args: (z) =>
        z.object({
          ca_name: z.coerce.string(),
          CN: z.coerce.string(),
          days: pyInt(z).default(365),
          cacert_path: optStr(z),
          ca_filename: optStr(z),
          cert_path: optStr(z),
          cert_filename: optStr(z),
          digest: z.string().default('sha256'),
          cert_type: optStr(z),
          type_ext: pyFlag(z, false),
          replace: pyFlag(z, false),
        }),
      doc: `Sign the request made by create_csr with the CA.${cli('tls.create_ca_signed_cert test_ca CN=www.example.com')}`,
      run: (ctx, a) => createSigned(ctx, { ...a, days: a.days ?? 365 }),
    }),
    create_pkcs12: defineFunction({
      args: (z) =>
        z.object({
          ca_name: z.coerce.string(),
          CN: z.coerce.string(),
          passphrase: z.coerce.string().default(''),
          cacert_path: optStr(z),
          replace: pyFlag(z, false),
        }),
      doc: `Bundle a signed certificate, its key and the CA certificate as PKCS#12.${cli("tls.create_pkcs12 test_ca localhost passphrase='s3cr3t'")}`,
      run: (ctx, a) => pkcs12(ctx, { ...a, passphrase: a.passphrase ?? '' }),
    }),
    cert_info: defineFunction({
      args: (z) => z.object({ cert: z.coerce.string(), digest: z.string().default('sha256') }),
      doc: `A certificate's subject, issuer, serial, dates, extensions and fingerprint.${cli('tls.cert_info /etc/pki/tls/certs/localhost.crt')}`,
      run: (_ctx, a) => certInfo(a.cert, a.digest),
    }),
    create_empty_crl: defineFunction({
      args: (z) =>
        z.object({
          ca_name: z.coerce.string(),
          cacert_path: optStr(z),
          ca_filename: optStr(z),
          crl_file: optStr(z),
          digest: z.string().default('sha256'),
        }),
      doc: `Write an empty CRL for the CA (crl.pem by default).${cli('tls.create_empty_crl ca_name=koji')}`,
      run: (ctx, a) => emptyCrl(ctx, a),
    }),
    revoke_cert: defineFunction({
      args: (z) =>
        z.object({
          ca_name: z.coerce.string(),
          CN: z.coerce.string(),
          cacert_path: optStr(z),
          ca_filename: optStr(z),
          cert_path: optStr(z),
          cert_filename: optStr(z),
          crl_file: optStr(z),
          digest: z.string().default('sha256'),
        }),
      doc: `Revoke a certificate the CA signed and rewrite the CRL.${cli('tls.revoke_cert ca_name=koji CN=test_system')}`,
      run: (ctx, a) => revoke(ctx, a),
    }),
  },
});

/** Salt's create_ca onlyif/unless: a command's exit code or a value's truth. */
async function skipped(ctx: ExecContext, onlyif: unknown, unless: unknown): Promise<boolean> {
  let skip = false;
  if (onlyif !== undefined && onlyif !== null) {
    if (typeof onlyif === 'string') skip = (await ctx.call('cmd.retcode', [onlyif])) !== 0;
    else skip = !onlyif;
  }
  if (unless !== undefined && unless !== null) {
    if (typeof unless === 'string') skip = skip || (await ctx.call('cmd.retcode', [unless])) === 0;
    else skip = skip || Boolean(unless);
  }
  return skip;
}
