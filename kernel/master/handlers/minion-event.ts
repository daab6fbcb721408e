/**
 * `_minion_event`: events a minion sends to the master bus (PROTOCOL.md §7, Salt's
 * `RemoteFuncs._minion_event`).
 */
import type { Effects } from './context.js';

/** Salt's `valid_minion_tag`: minions may not fire into the master's own namespaces. */
function validMinionTag(tag: string): boolean {
  return !/^salt\/(job|run|wheel|auth|key)\b/.test(tag) || /^salt\/job\/\d+\/prog\//.test(tag);
}

export function handleMinionEvent(load: Record<string, unknown>, effects: Effects): unknown {
  if (typeof load.id !== 'string') return false;
  if (Array.isArray(load.events)) {
    const pretag = typeof load.pretag === 'string' ? load.pretag : undefined;
    for (const ev of load.events as unknown[]) {
      if (!ev || typeof ev !== 'object') continue;
      const { tag, data } = ev as { tag?: unknown; data?: unknown };
      if (typeof tag !== 'string' || !validMinionTag(tag)) continue;
      const map =
        data && typeof data === 'object' && !Array.isArray(data)
          ? (data as Record<string, unknown>)
          : { data };
      effects.events.push({ tag, data: map });
      if (pretag) effects.events.push({ tag: `${pretag}/${tag}`, data: map });
    }
  } else if (typeof load.tag === 'string' && validMinionTag(load.tag)) {
    const copy = { ...load };
    effects.events.push({ tag: load.tag, data: copy });
  }
  return null;
}
