/**
 * Which bus events a user may see on `/events` and `/ws` (tsalt goes beyond salt-api here,
 * where every authenticated user sees the whole bus): users whose ACL allows every function
 * (`.*`) or holds `@events` see everything; others see the events of the jobs they started
 * (`salt/job/<jid>/...`, `salt/run/<jid>/...`, `salt/wheel/<jid>/...`) and nothing else.
 */
import type { SaltEvent } from '../../kernel/index.js';
import type { Identity } from './local-call.js';

const JOB_TAG = /^salt\/(?:job|run|wheel)\/(\d{20}(?:_\d+)?)\//;

/** Whether `who` sees the whole bus. */
export function seesEverything(who: Pick<Identity, 'authList'>): boolean {
  return who.authList.some((e) => e === '.*' || e === '@events');
}

/** A predicate for the events `who` may see; `jobUser` tells who started a job. */
export function eventFilter(
  who: Pick<Identity, 'authList' | 'user'>,
  jobUser: (jid: string) => string | undefined,
  tagPrefixes: readonly string[] = [],
): (ev: SaltEvent) => boolean {
  const all = seesEverything(who);
  const prefixes = tagPrefixes.filter(Boolean);
  return (ev) => {
    if (prefixes.length > 0 && !prefixes.some((p) => ev.tag.startsWith(p))) return false;
    if (all) return true;
    const m = JOB_TAG.exec(ev.tag);
    return m !== null && jobUser(m[1] as string) === who.user;
  };
}
