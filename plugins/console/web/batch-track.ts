/**
 * A batch run (`salt -b`, the API's `local_batch` client) seen live: the client answers only
 * when the last batch is done, so the page follows the sub-jobs on the event stream. A
 * sub-job is a `salt/job/<jid>/new` of the same function by the same user on a `list` target
 * (the batch engine's); its returns show as they arrive. The client's answer, one
 * `{minion: return}` per minion (`{}` for one that did not return), settles the rest.
 */
import type { MinionResult } from './run-state.js';
import { resultOf } from './run-state.js';

/** The sub-job a `salt/job/<jid>/new` event announces, if it is one of this batch's. */
export function batchSubJob(
  tag: string,
  data: Readonly<Record<string, unknown>>,
  fun: string,
  user: string,
): { jid: string; minions: string[] } | undefined {
  const m = /^salt\/job\/(\d+)\/new$/.exec(tag);
  if (!m || data.fun !== fun || data.user !== user || data.tgt_type !== 'list') return undefined;
  const minions = Array.isArray(data.minions) ? data.minions.map(String) : [];
  return { jid: m[1] as string, minions };
}

const isEmptyMap = (v: unknown): boolean =>
  !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;

/**
 * Settles `results` with the `local_batch` answer: a minion the stream already gave a return
 * keeps it (it has the retcode, which the answer lacks); the others take the answer's value,
 * `{}` being "did not return".
 */
export function settleBatch(
  results: ReadonlyMap<string, MinionResult>,
  answer: unknown,
): Map<string, MinionResult> {
  const out = new Map(results);
  const entries = Array.isArray(answer) ? answer : [];
  for (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue;
    for (const [id, ret] of Object.entries(entry as Record<string, unknown>)) {
      const was = out.get(id);
      if (was && (was.state === 'returned' || was.state === 'failed')) continue;
      if (isEmptyMap(ret)) out.set(id, { id, state: 'no_return' });
      else {
        const retcode =
          ret && typeof ret === 'object' && !Array.isArray(ret)
            ? (ret as Record<string, unknown>).retcode
            : undefined;
        out.set(id, resultOf(id, { return: ret, retcode: typeof retcode === 'number' ? retcode : 0 }));
      }
    }
  }
  for (const [id, r] of out) if (r.state === 'waiting') out.set(id, { id, state: 'no_return' });
  return out;
}
