/**
 * `_minion_event`: events a minion sends to the master bus (PROTOCOL.md §7, Salt's
 * `RemoteFuncs._minion_event`).
 */
import type { Effects } from './context.js';

/**
 * Salt's `valid_minion_tag`: minions may not fire into the master's own namespaces; the one
 * exception, a job's progress (`salt/job/<jid>/prog/<id>/...`), only under the sender's own id.
 */
export function validMinionTag(tag: string, id: string): boolean {
  if (!/^salt\/(job|run|wheel|auth|key)\b/.test(tag)) return true;
  const prog = /^salt\/job\/\d+\/prog\/([^/]+)/.exec(tag);
  return prog !== null && prog[1] === id;
}

/** Fires a minion's event(s); tags it may not use are dropped and told to `warn`, as Salt logs them. */
export function handleMinionEvent(
  load: Record<string, unknown>,
  effects: Effects,
  warn: (message: string) => void = () => {},
): unknown {
  if (typeof load.id !== 'string') return false;
  const refused: string[] = [];
  if (Array.isArray(load.events)) {
    const pretag = typeof load.pretag === 'string' ? load.pretag : undefined;
    for (const ev of load.events as unknown[]) {
      if (!ev || typeof ev !== 'object') continue;
      const { tag, data } = ev as { tag?: unknown; data?: unknown };
      if (typeof tag !== 'string' || !validMinionTag(tag, load.id)) {
        if (typeof tag === 'string') refused.push(tag);
        continue;
      }
      const map =
        data && typeof data === 'object' && !Array.isArray(data)
          ? (data as Record<string, unknown>)
          : { data };
      effects.events.push({ tag, data: map });
      if (pretag) effects.events.push({ tag: `${pretag}/${tag}`, data: map });
    }
  } else if (typeof load.tag === 'string') {
    if (validMinionTag(load.tag, load.id)) effects.events.push({ tag: load.tag, data: { ...load } });
    else refused.push(load.tag);
  }
  for (const tag of refused) warn(`Filtering blacklisted event tag ${tag} from minion ${load.id}`);
  return null;
}
