/**
 * gpg's status lines read as python-gnupg 0.4.9's result classes read them, for what Salt's
 * `gpg` module shows: the import counts (`ImportResult`), the `status` text and `ok` of an
 * encryption or decryption (`Crypt`), the signer and trust of a verification (`Verify`), the
 * fingerprint of a generated key (`GenKey`) and the outcome of a deletion (`DeleteResult`).
 */
import type { GpgStatus } from './_gpg-run.js';

/** python-gnupg's `ImportResult` counts, in gpg's `IMPORT_RES` order. */
const IMPORT_COUNTS = [
  'count',
  'no_user_id',
  'imported',
  'imported_rsa',
  'unchanged',
  'n_uids',
  'n_subk',
  'n_sigs',
  'n_revoc',
  'sec_read',
  'sec_imported',
  'sec_dups',
  'not_imported',
] as const;

export type ImportCounts = Record<(typeof IMPORT_COUNTS)[number], number>;

export function importCounts(status: readonly GpgStatus[]): ImportCounts {
  const out = Object.fromEntries(IMPORT_COUNTS.map((k) => [k, 0])) as ImportCounts;
  for (const s of status) {
    if (s.key !== 'IMPORT_RES') continue;
    const v = s.value.split(/\s+/);
    IMPORT_COUNTS.forEach((k, i) => {
      out[k] = Number.parseInt(v[i] ?? '0', 10) || 0;
    });
  }
  return out;
}

/** What a signature check, an encryption or a decryption reported. */
export interface GpgOutcome {
  ok: boolean;
  status: string;
  valid: boolean;
  keyId: string | null;
  username: string | null;
  trustLevel: number | null;
}

const TRUST_LEVELS: Readonly<Record<string, number>> = {
  TRUST_UNDEFINED: 0,
  TRUST_NEVER: 1,
  TRUST_MARGINAL: 2,
  TRUST_FULLY: 3,
  TRUST_ULTIMATE: 4,
};

const GPG_SYSTEM_ERROR_CODES: Readonly<Record<number, string>> = {
  1: 'permission denied',
  35: 'file exists',
  81: 'file not found',
  97: 'not a directory',
};

const CRYPT_SIMPLE: Readonly<Record<string, string>> = {
  NEED_PASSPHRASE: 'need passphrase',
  BAD_PASSPHRASE: 'bad passphrase',
  GOOD_PASSPHRASE: 'good passphrase',
  MISSING_PASSPHRASE: 'missing passphrase',
  KEY_NOT_CREATED: 'key not created',
  NEED_PASSPHRASE_PIN: 'need passphrase pin',
  NEED_PASSPHRASE_SYM: 'need symmetric passphrase',
  INV_RECP: 'invalid recipient',
  KEYEXPIRED: 'key expired',
  SIG_CREATED: 'sig created',
  SIGEXPIRED: 'sig expired',
};

const CRYPT_IGNORED = new Set([
  'WARNING',
  'ERROR',
  'ENC_TO',
  'USERID_HINT',
  'GOODMDC',
  'END_DECRYPTION',
  'CARDCTRL',
  'BADMDC',
  'SC_OP_FAILURE',
  'SC_OP_SUCCESS',
  'PINENTRY_LAUNCHED',
  'KEY_CONSIDERED',
]);

/** python-gnupg's message for a `FAILURE <operation> <code>` line. */
function failureMessage(value: string): string {
  const cut = value.lastIndexOf(' ');
  const operation = cut < 0 ? value : value.slice(0, cut);
  const code = cut < 0 ? '' : value.slice(cut + 1);
  if (!/^\d+$/.test(code)) return `error - ${value}`;
  const n = Number(code) & 0xffffff;
  const text =
    n & 0x8000
      ? GPG_SYSTEM_ERROR_CODES[n & 0x7fff]
      : (n & 0x7fff) === 11
        ? 'incorrect passphrase'
        : undefined;
  return text ? `${operation}: ${text}` : `error - ${value}`;
}

/** `Verify.handle_status` for one line. */
function verifyLine(o: GpgOutcome, key: string, value: string): void {
  const trust = TRUST_LEVELS[key];
  if (trust !== undefined) {
    o.trustLevel = trust;
    return;
  }
  const head = (v: string) => {
    const i = v.search(/\s/);
    return i < 0 ? [v, ''] : [v.slice(0, i), v.slice(i).trimStart()];
  };
  switch (key) {
    case 'GOODSIG':
    case 'BADSIG':
    case 'EXPSIG': {
      o.valid = key === 'GOODSIG';
      o.status =
        key === 'GOODSIG' ? 'signature good' : key === 'BADSIG' ? 'signature bad' : 'signature expired';
      [o.keyId, o.username] = head(value) as [string, string];
      break;
    }
    case 'ERRSIG':
      o.valid = false;
      o.keyId = value.split(/\s+/)[0] ?? '';
      o.status = 'signature error';
      break;
    case 'VALIDSIG':
      o.status = 'signature valid';
      break;
    case 'DECRYPTION_FAILED':
    case 'NO_PUBKEY':
    case 'NO_SECKEY':
      o.valid = false;
      o.keyId = value;
      o.status =
        key === 'NO_PUBKEY' ? 'no public key' : key === 'NO_SECKEY' ? 'no secret key' : 'decryption failed';
      break;
    case 'EXPKEYSIG':
    case 'REVKEYSIG':
      o.valid = false;
      o.keyId = value.split(/\s+/)[0] ?? '';
      o.status = key === 'EXPKEYSIG' ? 'signing key has expired' : 'signing key was revoked';
      break;
    case 'UNEXPECTED':
      o.valid = false;
      o.keyId = value;
      o.status = 'unexpected data';
      break;
    case 'FAILURE':
      o.valid = false;
      o.keyId = value;
      if (!o.status) o.status = failureMessage(value);
      break;
  }
}

/** An outcome before any status line. */
function blankOutcome(): GpgOutcome {
  return { ok: false, status: '', valid: false, keyId: null, username: null, trustLevel: null };
}

/** Reads a `--verify` run as python-gnupg's `Verify`. */
export function verifyOutcome(status: readonly GpgStatus[]): GpgOutcome {
  const o = blankOutcome();
  for (const s of status) verifyLine(o, s.key, s.value);
  return o;
}

/** Reads an `--encrypt`/`--decrypt` run as python-gnupg's `Crypt`. */
export function cryptOutcome(status: readonly GpgStatus[]): GpgOutcome {
  const o = blankOutcome();
  for (const { key, value } of status) {
    const simple = CRYPT_SIMPLE[key];
    if (simple !== undefined) o.status = simple;
    else if (CRYPT_IGNORED.has(key)) continue;
    else if (key === 'NODATA') {
      if (o.status !== 'decryption failed') o.status = 'no data was provided';
    } else if (key === 'DECRYPTION_FAILED') {
      if (o.status !== 'no secret key') o.status = 'decryption failed';
    } else if (key === 'BEGIN_DECRYPTION') {
      if (o.status !== 'no secret key') o.status = 'decryption incomplete';
    } else if (key === 'BEGIN_ENCRYPTION') o.status = 'encryption incomplete';
    else if (key === 'DECRYPTION_OKAY' || key === 'END_ENCRYPTION') {
      o.status = key === 'DECRYPTION_OKAY' ? 'decryption ok' : 'encryption ok';
      o.ok = true;
    } else verifyLine(o, key, value);
  }
  return o;
}

/** `GenKey.fingerprint`: from `KEY_CREATED <type> <fingerprint>`, '' when none. */
export function createdFingerprint(status: readonly GpgStatus[]): string {
  let fp = '';
  for (const s of status) if (s.key === 'KEY_CREATED') fp = s.value.split(/\s+/)[1] ?? '';
  return fp;
}

const DELETE_PROBLEMS: Readonly<Record<string, string>> = {
  '1': 'No such key',
  '2': 'Must delete secret key first',
  '3': 'Ambiguous specification',
};

/** `str(DeleteResult)`: 'ok' unless gpg reported a `DELETE_PROBLEM`. */
export function deleteOutcome(status: readonly GpgStatus[]): string {
  let out = 'ok';
  for (const s of status)
    if (s.key === 'DELETE_PROBLEM') out = DELETE_PROBLEMS[s.value] ?? `Unknown error: '${s.value}'`;
  return out;
}
