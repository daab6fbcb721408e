/**
 * Reading X.509 structures from any reference Salt accepts (path, PEM, `b64:`, hex, base64,
 * DER): certificates, certificate signing requests and revocation lists, each split into the
 * parts the x509 functions need (names, times, key, extensions, the signed bytes).
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { child, children, type DerNode, readInt, readNode, readOid, readTime, TAG } from './_x509-der.js';
import { loadFileOrBytes } from './_x509-keys.js';
import { type Name, readName } from './_x509-name.js';

/** One extension as read: its OID, criticality and value bytes (the inner encoding). */
export interface RawExtension {
  oid: string;
  critical: boolean;
  value: Buffer;
}

/** What is signed, by which algorithm, and the signature. */
export interface Signed {
  der: Buffer;
  tbs: Buffer;
  sigAlgOid: string;
  signature: Buffer;
}

export interface ParsedCert extends Signed {
  version: number;
  serial: bigint;
  issuer: Name;
  issuerDer: Buffer;
  subject: Name;
  subjectDer: Buffer;
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
  extensions: RawExtension[];
  /** The subjectKeyIdentifier's digest, when the certificate has one. */
  skid?: Buffer;
}

export interface ParsedCsr extends Signed {
  subject: Name;
  subjectDer: Buffer;
  publicKey: KeyObject;
  extensions: RawExtension[];
}

export interface RevokedEntry {
  serial: bigint;
  date: Date;
  extensions: RawExtension[];
}

export interface ParsedCrl extends Signed {
  issuer: Name;
  issuerDer: Buffer;
  lastUpdate: Date;
  nextUpdate?: Date;
  revoked: RevokedEntry[];
  extensions: RawExtension[];
}

function signed(der: Buffer): { top: DerNode; tbsNode: DerNode; signed: Signed } {
  const top = readNode(der);
  if (top.tag !== TAG.SEQUENCE || top.raw.length !== der.length) throw new Error('DER: not one SEQUENCE');
  const [tbsNode, alg, sig] = children(top);
  if (!tbsNode || !alg || !sig) throw new Error('DER: not a signed structure');
  return {
    top,
    tbsNode,
    signed: { der, tbs: tbsNode.raw, sigAlgOid: readOid(child(alg, 0)), signature: sig.content.subarray(1) },
  };
}

/** The extensions in a SEQUENCE OF Extension. */
export function readExtensions(list: DerNode): RawExtension[] {
  return children(list).map((e) => {
    const parts = children(e);
    const oid = readOid(parts[0] ?? list);
    const critical = parts.length === 3 && (parts[1]?.content[0] ?? 0) !== 0;
    return { oid, critical, value: (parts[parts.length - 1] ?? list).content };
  });
}

const spkiKey = (n: DerNode): KeyObject => createPublicKey({ key: n.raw, format: 'der', type: 'spki' });

/** A certificate from its DER encoding. */
export function parseCertDer(der: Buffer): ParsedCert {
  const { tbsNode, signed: s } = signed(der);
  const f = children(tbsNode);
  const hasVersion = f[0]?.tag === 0xa0;
  const at = (i: number) => f[i + (hasVersion ? 1 : 0)] ?? tbsNode;
  const validity = children(at(3));
  const extWrap = f.find((n) => n.tag === 0xa3);
  const extensions = extWrap ? readExtensions(child(extWrap, 0)) : [];
  const ski = extensions.find((e) => e.oid === '2.5.29.14');
  return {
    ...s,
    version: hasVersion ? Number(readInt(child(f[0] ?? tbsNode, 0))) + 1 : 1,
    serial: readInt(at(0)),
    issuerDer: at(2).raw,
    issuer: readName(at(2)),
    notBefore: readTime(validity[0] ?? tbsNode),
    notAfter: readTime(validity[1] ?? tbsNode),
    subjectDer: at(4).raw,
    subject: readName(at(4)),
    publicKey: spkiKey(at(5)),
    extensions,
    ...(ski ? { skid: readNode(ski.value).content } : {}),
  };
}

/** A CSR from its DER encoding; its extensions come from the extensionRequest attribute. */
export function parseCsrDer(der: Buffer): ParsedCsr {
  const { tbsNode, signed: s } = signed(der);
  const [, subject, spki, attrs] = children(tbsNode);
  if (!subject || !spki) throw new Error('DER: not a CSR');
  let extensions: RawExtension[] = [];
  for (const attr of attrs ? children(attrs) : []) {
    const [oid, values] = children(attr);
    if (oid && values && readOid(oid) === '1.2.840.113549.1.9.14')
      extensions = readExtensions(child(values, 0));
  }
  return { ...s, subjectDer: subject.raw, subject: readName(subject), publicKey: spkiKey(spki), extensions };
}

/** A CRL from its DER encoding. */
export function parseCrlDer(der: Buffer): ParsedCrl {
  const { tbsNode, signed: s } = signed(der);
  const f = children(tbsNode);
  let i = f[0]?.tag === TAG.INTEGER ? 1 : 0;
  const issuer = f[i + 1] ?? tbsNode;
  const lastUpdate = readTime(f[i + 2] ?? tbsNode);
  i += 3;
  let nextUpdate: Date | undefined;
  const nu = f[i];
  if (nu && (nu.tag === TAG.UTC_TIME || nu.tag === TAG.GENERALIZED_TIME)) {
    nextUpdate = readTime(nu);
    i++;
  }
  const revoked: RevokedEntry[] = [];
  if (f[i]?.tag === TAG.SEQUENCE) {
    for (const r of children(f[i] ?? tbsNode)) {
      const [sn, date, exts] = children(r);
      revoked.push({
        serial: readInt(sn ?? r),
        date: readTime(date ?? r),
        extensions: exts ? readExtensions(exts) : [],
      });
    }
    i++;
  }
  const extWrap = f.find((n) => n.tag === 0xa0);
  return {
    ...s,
    issuerDer: issuer.raw,
    issuer: readName(issuer),
    lastUpdate,
    ...(nextUpdate ? { nextUpdate } : {}),
    revoked,
    extensions: extWrap ? readExtensions(child(extWrap, 0)) : [],
  };
}

/** The DER bodies of each PEM entry of the given label(s) in a text. */
export function pemBodies(text: string, label: RegExp): Buffer[] {
  const out: Buffer[] = [];
  const re = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (label.test(m[1] ?? '')) out.push(Buffer.from((m[2] ?? '').replace(/\s+/g, ''), 'base64'));
  }
  return out;
}

/** The first certificate of a reference (PEM, DER; with the rest of a PEM chain). */
export function loadCertChain(ref: string): ParsedCert[] {
  const data = loadFileOrBytes(ref);
  const text = data.toString('latin1');
  if (text.includes('-----BEGIN')) {
    if (/-----BEGIN PKCS7/.test(text.slice(0, text.indexOf('-----END') + 1))) {
      throw new SALT_ERR_EXEC_COMMAND('tsalt does not read PKCS#7 certificates yet');
    }
    const [first, ...rest] = pemBodies(text, /^(X509 |TRUSTED )?CERTIFICATE$/);
    let cert: ParsedCert;
    try {
      cert = parseCertDer(first ?? Buffer.alloc(0));
    } catch {
      throw new SALT_ERR_EXEC_COMMAND('Could not load PEM-encoded certificate.');
    }
    const chain: ParsedCert[] = [];
    for (const b of rest) {
      try {
        chain.push(parseCertDer(b));
      } catch {
        // Salt skips chain members it cannot read
      }
    }
    return [cert, ...chain];
  }
  try {
    return [parseCertDer(data)];
  } catch {
    throw new SALT_ERR_INVOCATION('Could not deserialize binary data, neither as DER nor PKCS#7, PKCS#12.');
  }
}

export const loadCert = (ref: string): ParsedCert => loadCertChain(ref)[0] as ParsedCert;

function loadPemOrDer<T>(ref: string, label: RegExp, parse: (b: Buffer) => T, what: string): T {
  const data = loadFileOrBytes(ref);
  const text = data.toString('latin1');
  const pem = text.includes('-----BEGIN');
  try {
    return parse(pem ? (pemBodies(text, label)[0] ?? Buffer.alloc(0)) : data);
  } catch {
    throw new SALT_ERR_INVOCATION(`Could not load ${pem ? 'PEM' : 'DER'}-encoded ${what}.`);
  }
}

export const loadCsr = (ref: string): ParsedCsr =>
  loadPemOrDer(ref, /^(NEW )?CERTIFICATE REQUEST$/, parseCsrDer, 'certificate signing request');

export const loadCrl = (ref: string): ParsedCrl =>
  loadPemOrDer(ref, /^X509 CRL$/, parseCrlDer, 'certificate revocation list');
