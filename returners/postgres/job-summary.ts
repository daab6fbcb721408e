/**
 * Salt's `format_jid_instance` for external stores, and jid arithmetic they need:
 * the next microsecond (several masters sharing a store) and the jid of a point in time.
 */

import type { JobSummary } from '../../kernel/index.js';
import { jidFromDate, jidToTime, nextJid } from '../../kernel/util.js';

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

/** The 20-digit jid of a time with the given microseconds within its millisecond. */
export function jidAt(date: Date, extraMicros = 0): string {
  return jidFromDate(date, date.getUTCMilliseconds() * 1000 + extraMicros);
}

export { nextJid };
