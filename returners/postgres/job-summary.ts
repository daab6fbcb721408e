/**
 * Salt's `format_jid_instance` for external stores, and jid arithmetic they need:
 * the next microsecond (several masters sharing a store) and the jid of a point in time.
 */
import { jidToTime } from '../../kernel/jid.js';
import type { JobSummary } from '../../kernel/jobs/returner.js';

/** A stored load as a job listing entry. */
export function summarizeJob(
  jid: string,
  load: Readonly<Record<string, unknown>>,
  minions?: readonly string[],
): JobSummary {
  const summary: JobSummary = {
    Function: (load.fun as string | string[] | undefined) ?? 'unknown-function',
    Arguments: Array.isArray(load.arg) ? load.arg : [],
    Target: (load.tgt as string | string[] | undefined) ?? 'unknown-target',
    'Target-type': typeof load.tgt_type === 'string' ? load.tgt_type : '',
    User: typeof load.user === 'string' ? load.user : 'root',
    StartTime: jidToTime(jid),
  };
  if (minions) summary.Minions = [...minions];
  return summary;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** The 20-digit jid of a time with the given microseconds within its millisecond. */
export function jidAt(date: Date, extraMicros = 0): string {
  return (
    pad(date.getUTCFullYear(), 4) +
    pad(date.getUTCMonth() + 1, 2) +
    pad(date.getUTCDate(), 2) +
    pad(date.getUTCHours(), 2) +
    pad(date.getUTCMinutes(), 2) +
    pad(date.getUTCSeconds(), 2) +
    pad(date.getUTCMilliseconds() * 1000 + extraMicros, 6)
  );
}

/** The jid one microsecond after `jid` (a `_<pid>` suffix is kept). */
export function nextJid(jid: string): string {
  const digits = jid.slice(0, 20);
  const suffix = jid.slice(20);
  const ms = Date.UTC(
    Number(digits.slice(0, 4)),
    Number(digits.slice(4, 6)) - 1,
    Number(digits.slice(6, 8)),
    Number(digits.slice(8, 10)),
    Number(digits.slice(10, 12)),
    Number(digits.slice(12, 14)),
  );
  const micros = Number(digits.slice(14, 20)) + 1;
  const date = new Date(ms + Math.floor(micros / 1000));
  return jidAt(date, micros % 1000) + suffix;
}
