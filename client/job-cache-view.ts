/**
 * The runners' view of the master job cache: whatever returner `master_job_cache` names,
 * through the returner interface only. A store without `listJobs` is searched by filtering
 * its `getJids` listing.
 */

import type { JobQuery, JobSummary, ReturnerContext, ReturnerDef } from '../kernel/jobs/returner.js';
import type { JobCacheView } from '../kernel/runners/define.js';
import { globMatch } from '../kernel/targeting/glob.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The start time of a job from its jid (`YYYYMMDDhhmmssffffff`, local time as Salt writes it). */
export function jidDate(jid: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{6})/.exec(jid);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, us] = m.map(Number) as number[];
  return new Date(y ?? 0, (mo ?? 1) - 1, d, h, mi, s, Math.floor((us ?? 0) / 1000));
}

/** Parses Salt's `StartTime` text (`2026, Nov 22 13:31:05.123456`). */
export function startTimeDate(text: string): Date | undefined {
  const m = /^(\d{4}), (\w{3}) (\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(text);
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[2] ?? '');
  if (month < 0) return undefined;
  return new Date(
    Number(m[1]),
    month,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
    Math.floor(Number((m[7] ?? '0').padEnd(6, '0').slice(0, 6)) / 1000),
  );
}

function globs(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? [value] : [...value];
}

function matchesAny(patterns: readonly string[], values: readonly string[]): boolean {
  return patterns.some((p) => values.some((v) => v === p || globMatch(p, v)));
}

/** Whether one listed job matches a query (every given field must). */
export function jobMatches(jid: string, job: JobSummary, query: JobQuery): boolean {
  const funs = globs(query.searchFunction);
  if (funs) {
    const names = Array.isArray(job.Function) ? job.Function.map(String) : [String(job.Function)];
    if (!matchesAny(funs, names)) return false;
  }
  const targets = globs(query.searchTarget);
  if (targets) {
    const values = [
      ...(Array.isArray(job.Target) ? job.Target.map(String) : [String(job.Target)]),
      ...(job.Minions ?? []),
    ];
    if (!matchesAny(targets, values)) return false;
  }
  if (query.startTime || query.endTime) {
    const at = startTimeDate(job.StartTime) ?? jidDate(jid);
    if (!at) return false;
    if (query.startTime && at < query.startTime) return false;
    if (query.endTime && at > query.endTime) return false;
  }
  return true;
}

/** Filters a `getJids` listing: newest first, at most `limit`. */
export function filterJobs(
  all: Readonly<Record<string, JobSummary>>,
  query: JobQuery,
): Array<JobSummary & { jid: string }> {
  const out = Object.entries(all)
    .filter(([jid, job]) => jobMatches(jid, job, query))
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([jid, job]) => ({ ...job, jid }));
  return query.limit !== undefined ? out.slice(0, query.limit) : out;
}

/** A {@link JobCacheView} over one returner and its context. */
export function jobCacheView(def: ReturnerDef, ctx: ReturnerContext): JobCacheView {
  return {
    name: def.name,
    async listJobs(query) {
      if (def.listJobs) return def.listJobs(query, ctx);
      return filterJobs((await def.getJids?.(ctx)) ?? {}, query);
    },
    async getLoad(jid) {
      return def.getLoad?.(jid, ctx);
    },
    async getJid(jid) {
      return (await def.getJid?.(jid, ctx)) ?? {};
    },
    async getFun(fun) {
      return (await def.getFun?.(fun, ctx)) ?? {};
    },
  };
}
