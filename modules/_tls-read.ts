/**
 * The reading half of Salt's `tls` module: cert_info's dict, expiration dates, validation
 * against the CA and a CRL, revocation (index.txt and a new CRL) and PKCS#12 bundles.
 */
import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pem } from './_tls-build.js';
import { type Revocation, tlsCrl } from './_tls-crl.js';
import { basePath, indexSubject, rememberBase, serialHex, twoDigitYear } from './_tls-paths.js';
import { colonHex, components, EXT_SHORT, extensionText } from './_tls-text.js';
import { loadCert, loadCrl, type ParsedCert, parseCertDer, pemBodies } from './_x509-parse.js';
import { sigAlgName, verifySigned } from './_x509-sign.js';

/** A certificate from a PEM file, or undefined where Salt's `_read_cert` logs and gives None. */
export function readCert(ctx: ExecContext, path: string): ParsedCert | undefined {
  try {
    const body = pemBodies(readFileSync(path, 'utf8'), /CERTIFICATE/)[0];
    return body ? parseCertDer(body) : undefined;
  } catch {
    ctx.log.error(`Failed to read cert from path ${path}`);
    return undefined;
  }
}

function mustRead(ctx: ExecContext, cert: string): ParsedCert {
  const c = readCert(ctx, cert);
  if (!c) throw new SALT_ERR_EXEC_COMMAND(`Failed to read cert from ${cert}, see log for details`);
  return c;
}

/** Python's strftime for the directives dates use. */
function strftime(d: Date, fmt: string): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const map: Record<string, string> = {
    Y: String(d.getUTCFullYear()),
    y: p(d.getUTCFullYear() % 100),
    m: p(d.getUTCMonth() + 1),
    d: p(d.getUTCDate()),
    H: p(d.getUTCHours()),
    M: p(d.getUTCMinutes()),
    S: p(d.getUTCSeconds()),
    '%': '%',
  };
  return fmt.replace(/%(.)/g, (m, c: string) => map[c] ?? m);
}

/** Salt's `get_expiration_date`. */
export const expirationDate = (ctx: ExecContext, cert: string, fmt: string): string =>
  strftime(mustRead(ctx, cert).notAfter, fmt);

const DIGESTS = new Set(['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512']);

/** Salt's `cert_info`. */
export function certInfo(cert: string, digest: string): Record<string, unknown> {
  let text = cert;
  if (!cert.includes('-----BEGIN')) {
    if (!existsSync(cert)) throw new SALT_ERR_EXEC_COMMAND(`[Errno 2] No such file or directory: '${cert}'`);
    text = readFileSync(cert, 'utf8');
  }
  const body = pemBodies(text, /CERTIFICATE/)[0];
  if (!body) throw new SALT_ERR_EXEC_COMMAND("[('PEM routines', '', 'no start line')]");
  const c = parseCertDer(body);
  if (!DIGESTS.has(digest.toLowerCase())) throw new SALT_ERR_EXEC_COMMAND('No such digest method');
  const ret: Record<string, unknown> = {
    fingerprint: colonHex(createHash(digest.toLowerCase()).update(c.der).digest()),
    subject: Object.fromEntries(components(c.subject)),
    issuer: Object.fromEntries(components(c.issuer)),
    serial_number: c.serial,
    not_before: Math.floor(c.notBefore.getTime() / 1000),
    not_after: Math.floor(c.notAfter.getTime() / 1000),
    extensions: Object.fromEntries(c.extensions.map((e) => [EXT_SHORT[e.oid] ?? e.oid, extensionText(e)])),
  };
  const san = c.extensions.find((e) => e.oid === '2.5.29.17');
  if (san) {
    const names = new Set<string>();
    for (const n of extensionText(san).split(', ')) {
      const i = n.indexOf(':');
      if (['DNS', 'IP Address'].includes(n.slice(0, i))) names.add(n.slice(i + 1));
    }
    ret.subject_alt_names = [...names];
  }
  ret.signature_algorithm = sigAlgName(c.sigAlgOid);
  return ret;
}

/** Salt's `validate`: the certificate against the CA and a CRL, as OpenSSL's store reports it. */
export async function validate(ctx: ExecContext, cert: string, caName: string, crlFile: string | null) {
  const c = mustRead(ctx, cert);
  const ca = readCert(ctx, `${await basePath(ctx)}/${caName}/${caName}_ca_cert.crt`);
  const fail = (error: string) => ({ error, error_cert: '<OpenSSL.crypto.X509 object>', valid: false });
  if (!ca || !verifySigned(c, ca.publicKey)) return fail('unable to get local issuer certificate');
  const now = Date.now();
  if (now < c.notBefore.getTime()) return fail('certificate is not yet valid');
  if (now > c.notAfter.getTime()) return fail('certificate has expired');
  if (!crlFile) return fail('CRL signature failure');
  const crl = loadCrl(crlFile);
  if (!verifySigned(crl, ca.publicKey)) return fail('CRL signature failure');
  if (crl.nextUpdate && now > crl.nextUpdate.getTime()) return fail('CRL has expired');
  if (crl.revoked.some((r) => r.serial === c.serial)) return fail('certificate revoked');
  return { valid: true };
}

export interface RevokeArgs {
  ca_name: string;
  CN: string;
  cacert_path?: string | null;
  ca_filename?: string | null;
  cert_path?: string | null;
  cert_filename?: string | null;
  crl_file?: string | null;
  digest: string;
}

const fromTwoDigit = (s: string): Date | undefined => {
  const m = /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number);
  return new Date(Date.UTC((y ?? 0) < 69 ? 2000 + (y ?? 0) : 1900 + (y ?? 0), (mo ?? 1) - 1, d, h, mi, se));
};

/** Salt's `revoke_cert`: mark the certificate R in index.txt and write the CRL of all R lines. */
export async function revoke(ctx: ExecContext, a: RevokeArgs): Promise<string | Record<string, unknown>> {
  rememberBase(ctx, a.cacert_path);
  const base = await basePath(ctx);
  const caDir = `${base}/${a.ca_name}`;
  const caFile = a.ca_filename ?? `${a.ca_name}_ca_cert`;
  const certPath = a.cert_path ?? `${caDir}/certs`;
  const file = a.cert_filename ?? a.CN;
  const caCertP = `${caDir}/${caFile}.crt`;
  const caKeyP = `${caDir}/${caFile}.key`;
  if (!existsSync(caCertP) || !existsSync(caKeyP)) return `There is no CA named "${a.ca_name}"`;
  const ca = loadCert(caCertP);
  const caKey = createPrivateKey(readFileSync(caKeyP));
  const client = readCert(ctx, `${certPath}/${file}.crt`);
  if (!client) return `There is no client certificate named "${a.CN}"`;
  const sn = serialHex(client);
  const tail = `${sn}\tunknown\t${indexSubject(client)}`;
  const exp = twoDigitYear(client.notAfter);
  const indexFile = `${caDir}/index.txt`;
  let index = readFileSync(indexFile, 'utf8');
  for (const line of index.split(/(?<=\n)/)) {
    const m = /^R\t(\d{12}Z)\t(\d{12}Z)\t(.*\n?)$/s.exec(line);
    if (m && m[1] === exp && m[3] === tail)
      return `"${certPath}/${file}.crt" was already revoked, serial number: ${sn}`;
    if (line.includes(tail)) {
      index = index.split(`V\t${exp}\t\t${tail}`).join(`R\t${exp}\t${twoDigitYear(new Date())}\t${tail}`);
      writeFileSync(indexFile, index);
      break;
    }
  }
  const revoked: Revocation[] = [];
  for (const line of index.split('\n')) {
    if (!line.startsWith('R')) continue;
    const f = line.split('\t');
    const date = fromTwoDigit(f[2] ?? '');
    if (date && f[3]) revoked.push({ serial: BigInt(`0x${f[3]}`), date });
  }
  const crl = pem('X509 CRL', tlsCrl(ca.subjectDer, caKey, revoked, a.digest));
  const crlFile = a.crl_file ?? `${caDir}/crl.pem`;
  if (existsSync(crlFile) && statSync(crlFile).isDirectory()) {
    return { retcode: 1, comment: `crl_file "${crlFile}" is an existing directory` };
  }
  writeFileSync(crlFile, crl);
  return `Revoked Certificate: "${certPath}/${file}.crt", serial number: ${sn}`;
}

/** Salt's `create_empty_crl`. */
export async function emptyCrl(
  ctx: ExecContext,
  a: {
    ca_name: string;
    cacert_path?: string | null;
    ca_filename?: string | null;
    crl_file?: string | null;
    digest: string;
  },
): Promise<string> {
  rememberBase(ctx, a.cacert_path);
  const base = await basePath(ctx);
  const caFile = a.ca_filename || `${a.ca_name}_ca_cert`;
  const crlFile = a.crl_file || `${base}/${a.ca_name}/crl.pem`;
  if (existsSync(crlFile)) return `CRL "${crlFile}" already exists`;
  const caCertP = `${base}/${a.ca_name}/${caFile}.crt`;
  const caKeyP = `${base}/${a.ca_name}/${caFile}.key`;
  if (!existsSync(caCertP) || !existsSync(caKeyP)) return `There is no CA named "${a.ca_name}"`;
  const ca = loadCert(caCertP);
  writeFileSync(
    crlFile,
    pem('X509 CRL', tlsCrl(ca.subjectDer, createPrivateKey(readFileSync(caKeyP)), [], a.digest)),
  );
  return `Created an empty CRL: "${crlFile}"`;
}

/**
 * Salt's `create_pkcs12`, through `openssl pkcs12 -export` with pyOpenSSL's choices (3DES for
 * key and certificates, 2048 iterations, a SHA-256 MAC of one iteration). The passphrase goes
 * through the environment, never the command line.
 */
export async function pkcs12(
  ctx: ExecContext,
  a: { ca_name: string; CN: string; passphrase: string; cacert_path?: string | null; replace: boolean },
): Promise<string> {
  rememberBase(ctx, a.cacert_path);
  const base = await basePath(ctx);
  const dir = `${base}/${a.ca_name}/certs`;
  const out = `${dir}/${a.CN}.p12`;
  if (!a.replace && existsSync(out)) return `Certificate "${a.CN}" already exists`;
  const caCert = `${base}/${a.ca_name}/${a.ca_name}_ca_cert.crt`;
  if (!existsSync(caCert)) return `There is no CA named "${a.ca_name}"`;
  if (!existsSync(`${dir}/${a.CN}.crt`) || !existsSync(`${dir}/${a.CN}.key`)) {
    return `There is no certificate that matches the CN "${a.CN}"`;
  }
  const args = [
    'pkcs12',
    '-export',
    '-in',
    `${dir}/${a.CN}.crt`,
    '-inkey',
    `${dir}/${a.CN}.key`,
    '-certfile',
    caCert,
  ];
  const pbe = [
    '-keypbe',
    'PBE-SHA1-3DES',
    '-certpbe',
    'PBE-SHA1-3DES',
    '-iter',
    '2048',
    '-macalg',
    'sha256',
    '-nomaciter',
  ];
  try {
    execFileSync('openssl', [...args, ...pbe, '-passout', 'env:TSALT_P12_PASS', '-out', out], {
      env: { ...process.env, TSALT_P12_PASS: a.passphrase },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (err) {
    const msg = (err as { stderr?: Buffer }).stderr?.toString().trim() ?? String(err);
    throw new SALT_ERR_EXEC_COMMAND(`openssl pkcs12 failed: ${msg}`);
  }
  chmodSync(out, 0o644); // pyOpenSSL's open(..., "wb") leaves it to the umask
  return `Created PKCS#12 Certificate for "${a.CN}": "${dir}/${a.CN}.p12"`;
}
