/**
 * The writing half of Salt's `tls` module: a CA, a request, a certificate signed by a CA and a
 * self-signed one, each with Salt's file layout under `{cacert_path}/{name}`, its file modes and
 * its return strings.
 */

import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import type { ExecContext } from '../kernel/index.js';
import {
  caExtensions,
  certificate,
  confExtensions,
  newSerial,
  pem,
  request,
  rsaKey,
  type TlsSubject,
  tlsName,
} from './_tls-build.js';
import { basePath, recordCert, rememberBase } from './_tls-paths.js';
import { extensionProfile } from './_tls-profile.js';
import { seq, ctx as tagged } from './_x509-der.js';
import type { Extension } from './_x509-ext.js';
import { generalName, generalNamePairs } from './_x509-gn.js';
import { nameDer } from './_x509-name.js';
import { loadCert, loadCsr, parseCertDer } from './_x509-parse.js';

/** subjectAltName as OpenSSL's config takes it: DNS names are not checked (underscores pass). */
function altNames(conf: string): Extension {
  const names = generalNamePairs(conf).pairs.map(([k, v]) =>
    k.toUpperCase() === 'DNS' ? tagged(2, false, Buffer.from(String(v), 'ascii')) : generalName(k, v),
  );
  return { name: 'subjectAltName', oid: '2.5.29.17', critical: false, value: seq(...names) };
}

const cachedir = (ctx: ExecContext): string => String(ctx.opts.cachedir ?? '/var/cache/salt/minion');

/** Writes a file created 0600 (an existing file keeps its mode, as os.open does). */
function writePrivate(path: string, text: string): void {
  const fd = openSync(path, 'w', 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
const keyPem = (k: KeyObject): string => k.export({ type: 'pkcs8', format: 'pem' }).toString();
const utcStamp = (): string => new Date().toISOString().replace(/\D/g, '').slice(0, 14);

export interface CaArgs extends TlsSubject {
  ca_name: string;
  bits: number;
  days: number;
  cacert_path?: string | null;
  ca_filename?: string | null;
  digest: string;
  replace: boolean;
}

/** Salt's `create_ca`. */
export async function createCa(ctx: ExecContext, a: CaArgs): Promise<string> {
  rememberBase(ctx, a.cacert_path);
  const base = await basePath(ctx);
  const file = a.ca_filename || `${a.ca_name}_ca_cert`;
  const dir = `${base}/${a.ca_name}`;
  const certp = `${dir}/${file}.crt`;
  const keyp = `${dir}/${file}.key`;
  if (!a.replace && existsSync(certp)) return `Certificate for CA named "${a.ca_name}" already exists`;
  mkdirSync(dir, { recursive: true });
  let key: KeyObject | undefined;
  let old: string | undefined;
  if (existsSync(keyp)) {
    old = readFileSync(keyp, 'utf8');
    try {
      key = createPrivateKey(old);
    } catch {
      ctx.log.warn(`Error loading existing private key ${keyp}, generating a new key`);
      renameSync(keyp, `${keyp}.unloadable.${utcStamp()}`);
      old = undefined;
    }
  }
  key ??= rsaKey(a.bits);
  const serial = newSerial(cachedir(ctx), a.ca_name);
  const name = nameDer(tlsName(a));
  const der = certificate({
    serial,
    subject: name,
    issuer: name,
    days: a.days,
    publicKey: createPublicKey(key),
    signingKey: key,
    extensions: caExtensions(key, name, serial),
    digest: a.digest,
  });
  const text = keyPem(key);
  if (old !== undefined && old.trim() !== text.trim()) writePrivate(`${keyp}.${utcStamp()}`, old.trim());
  if (old === undefined || old.trim() !== text.trim()) writePrivate(keyp, text);
  writeFileSync(certp, pem('CERTIFICATE', der));
  recordCert(dir, parseCertDer(der));
  return `Created Private Key: "${dir}/${file}.key" Created CA "${a.ca_name}": "${certp}"`;
}

export interface SelfSignedArgs extends TlsSubject {
  tls_dir: string;
  bits: number;
  days: number;
  cacert_path?: string | null;
  cert_filename?: string | null;
  digest: string;
  replace: boolean;
}

/** Salt's `create_self_signed_cert` (no extensions, as Salt's). */
export async function createSelfSigned(ctx: ExecContext, a: SelfSignedArgs): Promise<string> {
  rememberBase(ctx, a.cacert_path);
  const base = await basePath(ctx);
  const dir = `${base}/${a.tls_dir}/certs`;
  mkdirSync(dir, { recursive: true });
  const file = a.cert_filename || a.CN;
  if (!a.replace && existsSync(`${dir}/${file}.crt`)) return `Certificate "${file}" already exists`;
  const key = rsaKey(a.bits);
  const name = nameDer(tlsName(a));
  const der = certificate({
    serial: newSerial(cachedir(ctx), a.tls_dir),
    subject: name,
    issuer: name,
    days: a.days,
    publicKey: createPublicKey(key),
    signingKey: key,
    extensions: [],
    digest: a.digest,
  });
  writePrivate(`${dir}/${file}.key`, keyPem(key));
  writeFileSync(`${dir}/${file}.crt`, pem('CERTIFICATE', der));
  recordCert(`${base}/${a.tls_dir}`, parseCertDer(der));
  return `Created Private Key: "${dir}/${file}.key" Created Certificate: "${dir}/${file}.crt"`;
}

export interface CsrArgs extends TlsSubject {
  ca_name: string;
  bits: number;
  subjectAltName?: unknown;
  cacert_path?: string | null;
  ca_filename?: string | null;
  csr_path?: string | null;
  csr_filename?: string | null;
  digest: string;
  type_ext: boolean;
  cert_type: string;
  replace: boolean;
}

/** Salt's `create_csr`: a key and a request with the cert_type profile's `csr` extensions. */
export async function createCsr(ctx: ExecContext, a: CsrArgs): Promise<string> {
  rememberBase(ctx, a.cacert_path);
  const base = await basePath(ctx);
  const caFile = a.ca_filename || `${a.ca_name}_ca_cert`;
  if (!existsSync(`${base}/${a.ca_name}/${caFile}.crt`)) {
    return `Certificate for CA named "${a.ca_name}" does not exist, please create it first.`;
  }
  const path = a.csr_path || `${base}/${a.ca_name}/certs/`;
  mkdirSync(path, { recursive: true });
  const file = a.csr_filename || `${a.CN}${a.type_ext ? `_${a.cert_type}` : ''}`;
  const csrF = `${path}/${file}.csr`;
  if (!a.replace && existsSync(csrF)) return `Certificate Request "${csrF}" already exists`;
  const key = rsaKey(a.bits);
  const pub = createPublicKey(key);
  const conf: Record<string, unknown> = { ...(await extensionProfile(ctx, a.cert_type)).csr };
  const exts = confExtensions(conf, pub);
  if (a.subjectAltName) {
    const san = Array.isArray(a.subjectAltName) ? a.subjectAltName.map(String) : [String(a.subjectAltName)];
    exts.push(altNames(san.join(', ')));
  }
  const der = request(key, tlsName(a), exts, a.digest);
  writePrivate(`${path}/${file}.key`, keyPem(key));
  writeFileSync(csrF, pem('CERTIFICATE REQUEST', der));
  return `Created Private Key: "${path}${file}.key" Created CSR for "${a.CN}": "${path}${file}.csr"`;
}

export interface SignedArgs {
  ca_name: string;
  CN: string;
  days: number;
  cacert_path?: string | null;
  ca_filename?: string | null;
  cert_path?: string | null;
  cert_filename?: string | null;
  digest: string;
  cert_type?: string | null;
  type_ext: boolean;
  replace: boolean;
}

/** Salt's `create_ca_signed_cert`: the request's subject, key and extensions, signed by the CA. */
export async function createSigned(
  ctx: ExecContext,
  a: SignedArgs,
): Promise<string | Record<string, unknown>> {
  rememberBase(ctx, a.cacert_path);
  const base = await basePath(ctx);
  const caFile = a.ca_filename || `${a.ca_name}_ca_cert`;
  const certPath = a.cert_path || `${base}/${a.ca_name}/certs`;
  if (a.type_ext && !a.cert_type) {
    ctx.log.error('type_ext = True but cert_type is unset. Certificate not written.');
    return {};
  }
  const stem = `${a.CN}${a.type_ext ? `_${a.cert_type}` : ''}`;
  const file = a.cert_filename || stem;
  if (!a.replace && existsSync(`${base}/${a.ca_name}/certs/${file}.crt`))
    return `Certificate "${file}" already exists`;
  const caCertP = `${base}/${a.ca_name}/${caFile}.crt`;
  const caKeyP = `${base}/${a.ca_name}/${caFile}.key`;
  if (!existsSync(caCertP) || !existsSync(caKeyP))
    return { retcode: 1, comment: `There is no CA named "${a.ca_name}"` };
  const caCert = loadCert(caCertP);
  const caKey = createPrivateKey(readFileSync(caKeyP));
  const csrP = `${certPath}/${stem}.csr`;
  if (!existsSync(csrP)) return { retcode: 1, comment: `There is no CSR that matches the CN "${file}"` };
  const csr = loadCsr(csrP);
  const der = certificate({
    serial: newSerial(cachedir(ctx), a.ca_name),
    subject: csr.subjectDer,
    issuer: caCert.subjectDer,
    days: a.days,
    publicKey: csr.publicKey,
    signingKey: caKey,
    extensions: csr.extensions.map((e) => ({ name: '', ...e })),
    digest: a.digest,
  });
  writeFileSync(`${certPath}/${file}.crt`, pem('CERTIFICATE', der));
  recordCert(`${base}/${a.ca_name}`, parseCertDer(der));
  return `Created Certificate for "${a.CN}": "${certPath}/${file}.crt"`;
}
