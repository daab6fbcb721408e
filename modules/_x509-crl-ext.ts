/**
 * The extensions only CRLs carry, by Salt's names and forms: the CRL's own cRLNumber,
 * deltaCRLIndicator and issuingDistributionPoint, and each revoked entry's CRLReason,
 * invalidityDate and certificateIssuer. The others a CRL may carry (authorityKeyIdentifier,
 * issuerAltName) come from the certificate extension builders.
 */
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { parseTime } from './_x509-build.js';
import { ctx, derInt, derString, seq, TAG, tlv } from './_x509-der.js';
import { buildExtension, confString, type ExtContext, type Extension } from './_x509-ext.js';
import { generalName, generalNamePairs } from './_x509-gn.js';

/** The extensions a CRL may carry (Salt's CRL_EXTS), with their OIDs. */
export const CRL_EXTS: readonly (readonly [string, string])[] = [
  ['authorityKeyIdentifier', '2.5.29.35'],
  ['authorityInfoAccess', '1.3.6.1.5.5.7.1.1'],
  ['cRLNumber', '2.5.29.20'],
  ['deltaCRLIndicator', '2.5.29.27'],
  ['freshestCRL', '2.5.29.46'],
  ['issuerAltName', '2.5.29.18'],
  ['issuingDistributionPoint', '2.5.29.28'],
];

/** The extensions a revoked entry may carry, with their OIDs. */
export const CRL_ENTRY_EXTS: readonly (readonly [string, string])[] = [
  ['certificateIssuer', '2.5.29.29'],
  ['CRLReason', '2.5.29.21'],
  ['invalidityDate', '2.5.29.24'],
];

/** The revocation reasons Salt accepts, by their code in CRLReason. */
const REASON_CODES: Readonly<Record<string, number>> = {
  unspecified: 0,
  keyCompromise: 1,
  cACompromise: 2,
  affiliationChanged: 3,
  superseded: 4,
  cessationOfOperation: 5,
  certificateHold: 6,
  removeFromCRL: 8,
  privilegeWithdrawn: 9,
  aACompromise: 10,
};

/** The ReasonFlags bit of each reason an issuingDistributionPoint may name. */
const REASON_BITS: Readonly<Record<string, number>> = {
  keyCompromise: 1,
  cACompromise: 2,
  affiliationChanged: 3,
  superseded: 4,
  cessationOfOperation: 5,
  certificateHold: 6,
  privilegeWithdrawn: 7,
  aACompromise: 8,
};

function reasonName(v: unknown): string {
  const s = String(v);
  if (!(s in REASON_CODES)) throw new SALT_ERR_INVOCATION(`'${s}' is not a valid ReasonFlags`);
  return s;
}

function crlNumber(v: unknown): [Buffer, boolean] {
  const s = String(v).trim();
  if (!/^[+-]?\d+$/.test(s) || typeof v === 'boolean') {
    throw new SALT_ERR_INVOCATION('cRLNumber must be an integer and must be marked as non-critical');
  }
  return [derInt(BigInt(s)), false];
}

function deltaCrlIndicator(v: unknown): [Buffer, boolean] {
  const s = String(v);
  const nums = s.match(/\d+/g) ?? [];
  if (nums.length !== 1) {
    throw new SALT_ERR_INVOCATION('deltaCRLIndicator must contain a single integer pointing to a cRLNumber');
  }
  return [derInt(BigInt(nums[0] ?? '0')), s.includes('critical')];
}

function crlReason(v: unknown): [Buffer, boolean] {
  let critical = false;
  let first: unknown;
  if (typeof v === 'string') {
    const c = confString(v);
    critical = c.critical;
    first = Object.keys(c.val)[0];
  } else if (Array.isArray(v)) {
    critical = v.includes('critical');
    first = v.find((x) => x !== 'critical');
  } else if (v && typeof v === 'object') {
    critical = 'critical' in v;
    first = Object.keys(v).find((x) => x !== 'critical');
  } else first = v;
  const code = REASON_CODES[reasonName(first)] ?? 0;
  return [tlv(TAG.ENUMERATED, Buffer.from([code])), critical];
}

/** A time as GeneralizedTime, which invalidityDate always uses. */
function generalizedTime(d: Date): Buffer {
  const iso = d.toISOString();
  return derString(TAG.GENERALIZED_TIME, `${iso.slice(0, 19).replace(/[-T:]/g, '')}Z`);
}

function invalidityDate(v: unknown): [Buffer, boolean] {
  if (typeof v !== 'string') throw new SALT_ERR_INVOCATION('invalidityDate must be a string');
  const critical = v.startsWith('critical');
  const when = critical ? v.split(' ').slice(1).join(' ') : v;
  return [generalizedTime(parseTime(when)), critical];
}

function certificateIssuer(v: unknown): [Buffer, boolean] {
  const { pairs, critical } = generalNamePairs(v);
  if (pairs.some(([k, x]) => k === 'issuer' && x === 'copy')) {
    throw new SALT_ERR_EXEC_COMMAND('Need CA certificate to copy to issuerAltName');
  }
  return [seq(...pairs.map(([k, x]) => generalName(k, x))), critical];
}

/** A named-bit BIT STRING of the given bit numbers, trailing zero bits dropped as DER wants. */
function namedBits(bits: number[]): Buffer {
  if (bits.length === 0) return Buffer.from([0]);
  const last = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(last / 8) + 1);
  for (const b of bits) bytes[b >> 3] = (bytes[b >> 3] ?? 0) | (0x80 >> (b & 7));
  return Buffer.concat([Buffer.from([7 - (last & 7)]), bytes]);
}

function flag(d: Record<string, unknown>, key: string): boolean {
  const v = d[key] ?? false;
  if (typeof v !== 'boolean') {
    throw new SALT_ERR_INVOCATION(
      'only_contains_user_certs, only_contains_ca_certs, indirect_crl and only_contains_attribute_certs must all be boolean.',
    );
  }
  return v;
}

function issuingDistributionPoint(v: unknown): [Buffer, boolean] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    throw new SALT_ERR_INVOCATION('issuingDistributionPoint must be a dictionary');
  }
  const d = v as Record<string, unknown>;
  if (d.relativename) throw new SALT_ERR_EXEC_COMMAND('tsalt cannot write a relativename yet');
  const full = d.fullname ? (Array.isArray(d.fullname) ? d.fullname : [d.fullname]) : [];
  const names = full.map((x) => {
    const s = String(x);
    const i = s.indexOf(':');
    return generalName(i < 0 ? s : s.slice(0, i), i < 0 ? '' : s.slice(i + 1));
  });
  const reasons = Array.isArray(d.onlysomereasons) ? d.onlysomereasons.map(reasonName) : [];
  if (reasons.includes('unspecified') || reasons.includes('removeFromCRL')) {
    throw new SALT_ERR_INVOCATION(
      'unspecified and remove_from_crl are not valid reasons in an IssuingDistributionPoint',
    );
  }
  const [user, ca, indirect, aa] = ['onlyuser', 'onlyCA', 'indirectCRL', 'onlyAA'].map((k) => flag(d, k));
  // the cryptography Salt 3006.18 runs on here counts indirect_crl among the exclusive flags
  if ([user, ca, indirect, aa].filter(Boolean).length > 1) {
    throw new SALT_ERR_INVOCATION(
      'Only one of the following can be set to True: only_contains_user_certs, only_contains_ca_certs, indirect_crl, only_contains_attribute_certs',
    );
  }
  if (!(user || ca || indirect || aa || names.length || reasons.length)) {
    throw new SALT_ERR_INVOCATION(
      'Cannot create empty extension: if only_contains_user_certs, only_contains_ca_certs, indirect_crl, and only_contains_attribute_certs are all False, then either full_name, relative_name, or only_some_reasons must have a value.',
    );
  }
  const yes = (n: number) => ctx(n, false, Buffer.from([0xff]));
  const parts = [
    ...(names.length ? [ctx(0, true, ctx(0, true, ...names))] : []),
    ...(user ? [yes(1)] : []),
    ...(ca ? [yes(2)] : []),
    ...(reasons.length ? [ctx(3, false, namedBits(reasons.map((r) => REASON_BITS[r] ?? 0)))] : []),
    ...(indirect ? [yes(4)] : []),
    ...(aa ? [yes(5)] : []),
  ];
  return [seq(...parts), Boolean(d.critical)];
}

type Builder = (v: unknown) => [Buffer, boolean];
const OWN: Readonly<Record<string, Builder>> = {
  cRLNumber: crlNumber,
  deltaCRLIndicator: deltaCrlIndicator,
  issuingDistributionPoint,
  CRLReason: crlReason,
  invalidityDate,
  certificateIssuer,
};

/** One CRL or CRL entry extension by Salt's name (`table` gives its OID). */
export function buildCrlExtension(
  name: string,
  v: unknown,
  c: ExtContext,
  table: readonly (readonly [string, string])[],
): Extension {
  const own = OWN[name];
  if (!own) return buildExtension(name, v, c);
  const [value, critical] = own(v);
  return { name, oid: table.find(([n]) => n === name)?.[1] ?? '', critical, value };
}
