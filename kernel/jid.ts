/**
 * Salt job ids: UTC `%Y%m%d%H%M%S%f` (20 digits), optionally `_<pid>` with `unique_jid`.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

let last = '';

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function format(date: Date, micros: number): string {
  return (
    pad(date.getUTCFullYear(), 4) +
    pad(date.getUTCMonth() + 1, 2) +
    pad(date.getUTCDate(), 2) +
    pad(date.getUTCHours(), 2) +
    pad(date.getUTCMinutes(), 2) +
    pad(date.getUTCSeconds(), 2) +
    pad(micros, 6)
  );
}

/** The 20-digit jid of `date`; the microseconds default to the date's milliseconds × 1000. */
export function jidFromDate(date: Date, micros = date.getUTCMilliseconds() * 1000): string {
  return format(date, micros);
}

/** The jid one microsecond after `jid` (a `_<pid>` suffix is kept). */
export function nextJid(jid: string): string {
  return bump(jid.slice(0, 20)) + jid.slice(20);
}

/** Increments a 20-digit jid by one microsecond. */
function bump(jid: string): string {
  const y = Number(jid.slice(0, 4));
  const mo = Number(jid.slice(4, 6)) - 1;
  const d = Number(jid.slice(6, 8));
  const h = Number(jid.slice(8, 10));
  const mi = Number(jid.slice(10, 12));
  const s = Number(jid.slice(12, 14));
  const us = Number(jid.slice(14, 20)) + 1;
  const date = new Date(Date.UTC(y, mo, d, h, mi, s) + Math.floor(us / 1_000_000) * 1000);
  return format(date, us % 1_000_000);
}

/**
 * A new jid, strictly increasing within this process (Salt only guarantees it with
 * `unique_jid`; tsalt always does, because two jobs in the same microsecond must not collide).
 */
export function genJid(opts: { unique_jid?: boolean } = {}): string {
  const now = Date.now();
  const hr = process.hrtime.bigint();
  const micros = (now % 1000) * 1000 + Number(hr % 1000n);
  let jid = format(new Date(now - (now % 1000)), micros);
  if (jid <= last) jid = bump(last);
  last = jid;
  return opts.unique_jid ? `${jid}_${process.pid}` : jid;
}

/** Salt's `is_jid`: 20 digits, or at least 22 characters with `_` at index 20 and digits before it. */
export function isJid(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (value.length !== 20 && (value.length <= 21 || value[20] !== '_')) return false;
  return /^\d{20}$/.test(value.slice(0, 20));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Salt's `jid_to_time`: `YYYY, Mon DD HH:MM:SS.ffffff`, or `''` when the jid has the wrong length. */
export function jidToTime(value: string | number): string {
  const jid = String(value);
  if (jid.length !== 20 && (jid.length <= 21 || jid[20] !== '_')) return '';
  const month = MONTHS[Number(jid.slice(4, 6)) - 1];
  if (!month) return '';
  return `${jid.slice(0, 4)}, ${month} ${jid.slice(6, 8)} ${jid.slice(8, 10)}:${jid.slice(10, 12)}:${jid.slice(12, 14)}.${jid.slice(14, 20)}`;
}

/** Salt's `jid_dir`: `<base>/<h[0:2]>/<h[2:]>` with h the hex digest of the jid. */
export function jidDir(jid: string, base: string, hashType = 'sha256'): string {
  const h = createHash(hashType).update(jid).digest('hex');
  return join(base, h.slice(0, 2), h.slice(2));
}
