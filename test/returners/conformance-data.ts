/**
 * Data builders of the returner conformance suite (re-exported by conformance.ts): jids at
 * chosen times, publish loads and minion returns.
 */
import { jidFromDate } from '../../kernel/jid.js';
import type { JobReturn, PublishRequest } from '../../kernel/jobs/types.js';

/** A 20-digit jid for the given time (the microseconds are random so runs do not collide). */
export function jidAt(date: Date): string {
  return jidFromDate(date, date.getUTCMilliseconds() * 1000 + Math.floor(Math.random() * 1000));
}

/** A publish load as the master saves it. */
export function confLoad(
  jid: string,
  fun: string | string[],
  tgt: string | string[] = '*',
  extra: Partial<PublishRequest> = {},
): PublishRequest {
  return { cmd: 'publish', tgt, fun, arg: [], tgt_type: 'glob', ret: '', jid, user: 'root', ...extra };
}

/** A minion's return as the master verified it. */
export function confReturn(
  id: string,
  jid: string,
  fun: string,
  value: unknown = true,
  extra: Partial<JobReturn> = {},
): JobReturn {
  return { id, jid, fun, fun_args: [], return: value, retcode: 0, success: true, ...extra };
}
