/**
 * The `cert_info` beacon (Salt's `salt/beacons/cert_info.py`): reads the listed PEM
 * certificates and fires one event `{certificates: [...]}` with those expiring within
 * `notify_days` (45 by default; per file too; `-1` reports every one): their issuer, subject,
 * dates, serial, signature algorithm, version, extensions and whether they have expired.
 *
 *   beacons:
 *     cert_info:
 *       - files:
 *           - /etc/pki/tls/certs/mycert.pem
 *           - /etc/pki/tls/certs/yourcert.pem: { notify_days: 15 }
 *       - notify_days: 45
 *       - interval: 86400
 */
import { readFileSync } from 'node:fs';
import { defineBeacon } from '../../kernel/index.js';
import { components, EXT_SHORT, extensionText } from '../../modules/_tls-text.js';
import { type ParsedCert, parseCertDer, pemBodies, type RawExtension } from '../../modules/_x509-parse.js';
import { sigAlgName } from '../../modules/_x509-sign.js';

const DEFAULT_NOTIFY_DAYS = 45;

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `20270101000000Z` (the ASN.1 generalized time pyOpenSSL gives). */
const rawTime = (d: Date): string => `${d.toISOString().slice(0, 19).replace(/[-T:]/g, '')}Z`;
/** `2027-01-01 00:00:00Z`. */
const shownTime = (d: Date): string => `${d.toISOString().slice(0, 19).replace('T', ' ')}Z`;

/** Whole days from the local wall clock to `notAfter` read as wall time, floored (Python's timedelta.days). */
export function daysLeft(notAfter: Date, now = new Date()): number {
  const wallNow = now.getTime() - now.getTimezoneOffset() * 60_000;
  return Math.floor((Math.floor(notAfter.getTime() / 1000) * 1000 - wallNow) / 86_400_000);
}

/** OpenSSL 3's text of an extension: a keyid-only authorityKeyIdentifier is its bare hex. */
function extText(e: RawExtension): string {
  const text = extensionText(e);
  return e.oid === '2.5.29.35' && !text.includes('\n') ? text.replace(/^keyid:/, '') : text;
}

const joined = (pairs: [string, string][]): string => pairs.map(([k, v]) => `${k}="${v}"`).join(',');

/** One certificate as the beacon reports it. */
export function certificateInfo(path: string, c: ParsedCert, now = new Date()): Record<string, unknown> {
  const serial = c.serial <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(c.serial) : c.serial;
  return {
    cert_path: path,
    issuer: joined(components(c.issuer)),
    issuer_dict: Object.fromEntries(components(c.issuer)),
    notAfter_raw: rawTime(c.notAfter),
    notAfter: shownTime(c.notAfter),
    notBefore_raw: rawTime(c.notBefore),
    notBefore: shownTime(c.notBefore),
    serial_number: serial,
    signature_algorithm: sigAlgName(c.sigAlgOid),
    subject: joined(components(c.subject)),
    subject_dict: Object.fromEntries(components(c.subject)),
    version: c.version - 1,
    extensions: c.extensions.map((e) => ({
      ext_name: EXT_SHORT[e.oid] ?? 'UNDEF',
      ext_data: extText(e),
    })),
    has_expired: c.notAfter.getTime() < now.getTime(),
  };
}

export default defineBeacon({
  name: 'cert_info',
  doc: 'Fire the details of the listed certificates that expire within notify_days.',
  validate(config) {
    if (!('files' in config)) return 'Configuration for cert_info beacon must contain files option.';
    return true;
  },
  beacon(ctx, config) {
    const globalDays: unknown = config.notify_days ?? DEFAULT_NOTIFY_DAYS;
    const certificates = [];
    for (const item of Array.isArray(config.files) ? config.files : []) {
      let path = item;
      let notifyDays = globalDays;
      if (isMap(item)) {
        const first = Object.keys(item)[0];
        if (first === undefined) {
          ctx.log.error(`Unable to load certificate ${JSON.stringify(item)} ()`);
          continue;
        }
        path = first;
        const own = item[first];
        if (isMap(own) && 'notify_days' in own) notifyDays = own.notify_days;
      }
      let cert: ParsedCert;
      try {
        const body = pemBodies(readFileSync(String(path), 'utf8'), /CERTIFICATE/)[0];
        if (!body) throw new Error('no start line');
        cert = parseCertDer(body);
      } catch (err) {
        ctx.log.error(`Unable to load certificate ${String(path)} (${(err as Error).message})`);
        continue;
      }
      const days = daysLeft(cert.notAfter);
      ctx.log.debug(`Certificate ${String(path)} expires in ${days} days.`);
      if (Number(notifyDays) < 0 || days <= Number(notifyDays))
        certificates.push(certificateInfo(String(path), cert));
    }
    return certificates.length > 0 ? [{ certificates }] : [];
  },
});
