/**
 * Salt's job shapes for the `jobs` runner (`_format_job_instance`, `_format_jid_instance`)
 * and the parsing of its arguments (jids, comma lists, times).
 */

import { startTimeDate } from '../../../client/job-cache-view.js';
import { type JobSummary, SALT_ERR_RUNNER, type StoredLoad } from '../../../kernel/index.js';
import { isJid, jidToTime } from '../../../kernel/util.js';

/** Salt's `_format_job_instance` of a stored load (or of a `saltutil.running` entry). */
export function formatJob(job: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const j = job ?? {};
  const out: Record<string, unknown> = {
    Function: j.fun ?? 'unknown-function',
    Arguments: Array.isArray(j.arg) ? [...j.arg] : [],
    Target: j.tgt ?? 'unknown-target',
    'Target-type': j.tgt_type ?? 'list',
    User: j.user ?? 'root',
  };
  const kwargs = j.kwargs as Record<string, unknown> | undefined;
  if (j.metadata !== undefined) out.Metadata = j.metadata;
  else if (kwargs && typeof kwargs === 'object' && kwargs.metadata !== undefined)
    out.Metadata = kwargs.metadata;
  if (Array.isArray(j.Minions)) out.Minions = [...j.Minions];
  return out;
}

/** Salt's `_format_jid_instance`: the job with its `StartTime`. */
export function formatJid(jid: string, job: StoredLoad | Readonly<Record<string, unknown>> | undefined) {
  return { ...formatJob(job as Record<string, unknown> | undefined), StartTime: jidToTime(jid) };
}

/**
 * A listing entry as Salt's `list_jobs` prints it: without the `jid` key the store adds, and
 * without the targeted `Minions` (Salt's local_cache lists jobs from their loads alone; only
 * `list_job` adds them).
 */
export function listingEntry(job: JobSummary & { jid: string }): Record<string, unknown> {
  const { jid: _jid, Minions: _minions, ...rest } = job;
  void _jid;
  void _minions;
  return rest;
}

/** The jid argument, checked: a clear error for anything that is not a jid. */
export function checkJid(value: unknown): string {
  const jid = typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
  if (!isJid(jid)) {
    throw new SALT_ERR_RUNNER(
      `${JSON.stringify(String(value))} is not a jid: a jid is 20 digits (YYYYMMDDhhmmssffffff), as printed by salt -v or salt-run jobs.list_jobs`,
    );
  }
  return jid;
}

/** Salt's `split_input`: a comma-separated string or a list, as a list. */
export function splitInput(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = typeof value === 'string' ? value.split(',') : [...value];
  return items.map((s) => String(s).trim()).filter(Boolean);
}

/** A time argument (`start_time`/`end_time`): Salt's `StartTime` text, ISO 8601, or what Date parses. */
export function parseTime(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const d = startTimeDate(value) ?? new Date(value);
  if (Number.isNaN(d.getTime()))
    throw new SALT_ERR_RUNNER(
      `${name} ${JSON.stringify(value)} is not a time: use e.g. "2026-11-22 13:30" or "2026, Nov 22 13:30:00.000000"`,
    );
  return d;
}
