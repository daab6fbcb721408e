/**
 * OpenSSL's one-line texts that Salt's `tls` module returns or writes: extension values as
 * `X509V3_EXT_print` shows them (cert_info's `extensions`), names as `/C=US/CN=x` and as the
 * index.txt subject pyOpenSSL's byte components produce.
 */
import { children, readInt, readNode, readOid } from './_x509-der.js';
import { EKU_OIDS, KEY_USAGE_BITS } from './_x509-ext.js';
import { renderGeneralName } from './_x509-gn.js';
import { type Name, readName } from './_x509-name.js';
import type { RawExtension } from './_x509-parse.js';

/** OpenSSL's short names of the attributes tls writes, and of a few more. */
const SHORT: Readonly<Record<string, string>> = {
  '2.5.4.6': 'C',
  '2.5.4.8': 'ST',
  '2.5.4.7': 'L',
  '2.5.4.9': 'street',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.3': 'CN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.4': 'SN',
  '2.5.4.42': 'GN',
  '1.2.840.113549.1.9.1': 'emailAddress',
  '0.9.2342.19200300.100.1.25': 'DC',
  '0.9.2342.19200300.100.1.1': 'UID',
};

/** The name's (short name, value) pairs in order, as pyOpenSSL's `get_components`. */
export const components = (name: Name): [string, string][] =>
  name.flat().map((a) => [SHORT[a.oid] ?? a.oid, a.value]);

/** `/C=US/ST=Utah/...` (OpenSSL's one-line form). */
export const slashName = (name: Name): string =>
  components(name)
    .map(([k, v]) => `/${k}=${v}`)
    .join('');

const KU_TEXT = [
  'Digital Signature',
  'Non Repudiation',
  'Key Encipherment',
  'Data Encipherment',
  'Key Agreement',
  'Certificate Sign',
  'CRL Sign',
  'Encipher Only',
  'Decipher Only',
];
const EKU_TEXT: Readonly<Record<string, string>> = {
  serverAuth: 'TLS Web Server Authentication',
  clientAuth: 'TLS Web Client Authentication',
  codeSigning: 'Code Signing',
  emailProtection: 'E-mail Protection',
  timeStamping: 'Time Stamping',
  OCSPSigning: 'OCSP Signing',
};
const EKU_BY_OID = new Map(Object.entries(EKU_OIDS).map(([k, oid]) => [oid, EKU_TEXT[k] ?? k]));

/** Upper-case hex with colons. */
export const colonHex = (b: Buffer): string => (b.toString('hex').toUpperCase().match(/../g) ?? []).join(':');

/** OpenSSL's short name of an extension (pyOpenSSL's `get_short_name`). */
export const EXT_SHORT: Readonly<Record<string, string>> = {
  '2.5.29.19': 'basicConstraints',
  '2.5.29.15': 'keyUsage',
  '2.5.29.37': 'extendedKeyUsage',
  '2.5.29.14': 'subjectKeyIdentifier',
  '2.5.29.35': 'authorityKeyIdentifier',
  '2.5.29.17': 'subjectAltName',
  '2.5.29.18': 'issuerAltName',
};

function basicConstraints(v: Buffer): string {
  const parts = children(readNode(v));
  const ca = parts[0]?.tag === 0x01 && (parts[0].content[0] ?? 0) !== 0;
  const len = parts.find((p) => p.tag === 0x02);
  return `CA:${ca ? 'TRUE' : 'FALSE'}${len ? `, pathlen:${readInt(len)}` : ''}`;
}

function keyUsage(v: Buffer): string {
  const bits = readNode(v).content.subarray(1);
  return KEY_USAGE_BITS.map((_b, i) => ((bits[i >> 3] ?? 0) & (0x80 >> (i & 7)) ? KU_TEXT[i] : ''))
    .filter(Boolean)
    .join(', ');
}

function authorityKeyId(v: Buffer): string {
  const out: string[] = [];
  for (const p of children(readNode(v))) {
    if (p.tag === 0x80) out.push(`keyid:${colonHex(p.content)}`);
    else if (p.tag === 0xa1) {
      for (const g of children(p)) {
        out.push(
          g.tag === 0xa4 ? `DirName:${slashName(readName(children(g)[0] ?? g))}` : renderGeneralName(g),
        );
      }
    } else if (p.tag === 0x82) out.push(`serial:${colonHex(p.content)}`);
  }
  return out.join('\n');
}

const altNames = (v: Buffer): string =>
  children(readNode(v))
    .map((g) =>
      renderGeneralName(g)
        .replace(/^IP:/, 'IP Address:')
        .replace(/^mail:/, 'email:'),
    )
    .join(', ');

/** One extension's value as OpenSSL prints it. */
export function extensionText(e: RawExtension): string {
  switch (e.oid) {
    case '2.5.29.19':
      return basicConstraints(e.value);
    case '2.5.29.15':
      return keyUsage(e.value);
    case '2.5.29.37':
      return children(readNode(e.value))
        .map((n) => EKU_BY_OID.get(readOid(n)) ?? readOid(n))
        .join(', ');
    case '2.5.29.14':
      return colonHex(readNode(e.value).content);
    case '2.5.29.35':
      return authorityKeyId(e.value);
    case '2.5.29.17':
    case '2.5.29.18':
      return altNames(e.value);
    default:
      return colonHex(e.value);
  }
}
