/**
 * The jobs page's search: by function, target and user (case-insensitive text, or a glob with
 * `*`) and by date (from, to: `YYYY-MM-DD`, both days included). A job's date is its jid's
 * (Salt's jids start with the master's local `YYYYMMDDhhmmss`).
 */

export interface JobSearch {
  readonly fun: string;
  readonly target: string;
  readonly user: string;
  /** `YYYY-MM-DD` or empty. */
  readonly from: string;
  /** `YYYY-MM-DD` or empty. */
  readonly to: string;
}

export const NO_SEARCH: JobSearch = { fun: '', target: '', user: '', from: '', to: '' };

/** The fields of a job the search reads. */
export interface Searchable {
  readonly jid: string;
  readonly fun: string;
  readonly target: string;
  readonly user: string;
}

/** `YYYY-MM-DD` of a jid, or undefined when it is not a Salt jid. */
export function jidDate(jid: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})\d{6}/.exec(jid);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

function textMatch(pattern: string, value: string): boolean {
  const p = pattern.trim().toLowerCase();
  if (!p) return true;
  const v = value.toLowerCase();
  if (!p.includes('*')) return v.includes(p);
  const re = p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${re}$`).test(v);
}

export function jobMatches(job: Searchable, q: JobSearch): boolean {
  if (!textMatch(q.fun, job.fun) || !textMatch(q.target, job.target) || !textMatch(q.user, job.user))
    return false;
  if (!q.from && !q.to) return true;
  const day = jidDate(job.jid);
  if (!day) return false;
  return (!q.from || day >= q.from) && (!q.to || day <= q.to);
}
