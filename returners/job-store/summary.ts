/**
 * Job listings as Salt shows them (`salt.utils.jid.format_jid_instance`) and the
 * `jobs.list_jobs` search applied to one job, shared by the job stores that filter in memory.
 */

import type { JobQuery, JobSummary, PublishRequest } from '../../kernel/index.js';
import { globMatch, jidToTime } from '../../kernel/util.js';

/** Salt's `format_jid_instance`: a job load as one entry of `jobs.list_jobs`. */
export function formatJidInstance(
  jid: string,
  load: Partial<PublishRequest> | undefined,
  minions?: readonly string[],
): JobSummary {
  const job = load ?? {};
  const out: JobSummary = {
    Function: job.fun ?? 'unknown-function',
    Arguments: Array.isArray(job.arg) ? [...job.arg] : [],
    Target: job.tgt ?? 'unknown-target',
    'Target-type': typeof job.tgt_type === 'string' ? job.tgt_type : 'list',
    User: typeof job.user === 'string' ? job.user : 'root',
    StartTime: jidToTime(jid),
  };
  const metadata =
    job.metadata ?? (job.kwargs && typeof job.kwargs === 'object' ? job.kwargs.metadata : undefined);
  if (metadata !== undefined) (out as JobSummary & { Metadata?: unknown }).Metadata = metadata;
  if (minions) out.Minions = [...minions];
  return out;
}

function asList(value: string | readonly string[]): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}

/** True when one of `names` matches one of the globs. */
export function anyGlob(globs: string | readonly string[], names: readonly string[]): boolean {
  return asList(globs).some((g) => names.some((n) => globMatch(g, n)));
}

/** The start time of a job in milliseconds since the epoch, from its jid (NaN when not a jid). */
export function jidTimeMs(jid: string): number {
  if (!/^\d{20}/.test(jid)) return Number.NaN;
  return (
    Date.UTC(
      Number(jid.slice(0, 4)),
      Number(jid.slice(4, 6)) - 1,
      Number(jid.slice(6, 8)),
      Number(jid.slice(8, 10)),
      Number(jid.slice(10, 12)),
      Number(jid.slice(12, 14)),
    ) +
    Number(jid.slice(14, 20)) / 1000
  );
}

/** Whether one job matches a `jobs.list_jobs` query (the limit aside). */
export function jobMatches(jid: string, summary: JobSummary, query: JobQuery): boolean {
  if (query.searchFunction !== undefined) {
    if (!anyGlob(query.searchFunction, asList(summary.Function))) return false;
  }
  if (query.searchTarget !== undefined) {
    if (!anyGlob(query.searchTarget, [...asList(summary.Target), ...(summary.Minions ?? [])])) return false;
  }
  if (query.startTime || query.endTime) {
    const t = jidTimeMs(jid);
    if (query.startTime && !(t >= query.startTime.getTime())) return false;
    if (query.endTime && !(t <= query.endTime.getTime())) return false;
  }
  return true;
}

/** Filters, sorts newest first and limits a `getJids` answer: `listJobs` for stores that cannot search. */
export function searchJobs(
  jobs: Readonly<Record<string, JobSummary>>,
  query: JobQuery,
): Array<JobSummary & { jid: string }> {
  const hits = Object.entries(jobs)
    .filter(([jid, s]) => jobMatches(jid, s, query))
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([jid, s]) => ({ jid, ...s }));
  return query.limit !== undefined && query.limit >= 0 ? hits.slice(0, query.limit) : hits;
}
