/**
 * `_minion_event`: events a minion sends to the master bus (PROTOCOL.md §7, Salt's
 * `RemoteFuncs._minion_event`).
 */
import { DROPPED_TAG, type GuardTrace, isEventMap, traceTag } from '../../kernel/bus/event-guard.js';
import type { Effects } from './context.js';

/**
 * Salt's `valid_minion_tag`: minions may not fire into the master's own namespaces; the one
 * exception, a job's progress (`salt/job/<jid>/prog/<id>/...`), only under the sender's own id.
 */
export function validMinionTag(tag: string, id: string): boolean {
  // an empty tag, or one holding the bus frame's `\n\n` separator, cannot be framed at all
  if (tag === '' || tag.includes('\n\n')) return false;
  if (!/^salt\/(job|run|wheel|auth|key)\b/.test(tag)) return true;
  const prog = /^salt\/job\/\d+\/prog\/([^/]+)/.exec(tag);
  return prog !== null && prog[1] === id;
}

/**
 * Salt's master logs, as an error, each `_salt_error` event a minion sends (an exception its
 * job's function raised): the line, or undefined for any other event.
 */
export function minionErrorLine(load: Readonly<Record<string, unknown>>): string | undefined {
  if (load.tag !== '_salt_error' || typeof load.id !== 'string') return undefined;
  const message = isEventMap(load.data) ? load.data.message : undefined;
  return `Received minion error from [${load.id}]: ${String(message)}`;
}

/**
 * Fires a minion's event(s). Refused, each with a `tsalt/bus/dropped` trace event and a line
 * told to `warn`: tags the minion may not use (Salt's wording), and data that is not a map
 * (Salt's `fire_event` raises for it). `max_event_size` is the event publisher's.
 */
export function handleMinionEvent(
  load: Record<string, unknown>,
  effects: Effects,
  warn: (message: string) => void = () => {},
): unknown {
  const id = load.id;
  if (typeof id !== 'string') return false;
  const refuse = (tag: string, reason: GuardTrace['reason'], line: string): void => {
    const trace: GuardTrace = { tag: traceTag(tag), size: 0, reason, minion: id };
    effects.events.push({ tag: DROPPED_TAG, data: { ...trace } });
    warn(line);
  };
  const forged = (tag: string) =>
    refuse(tag, 'forbidden-tag', `Filtering blacklisted event tag ${tag} from minion ${id}`);
  if (Array.isArray(load.events)) {
    const pretag = typeof load.pretag === 'string' ? load.pretag : undefined;
    for (const ev of load.events as unknown[]) {
      if (!isEventMap(ev)) continue;
      const tag = ev.tag;
      if (typeof tag !== 'string') continue;
      if (!validMinionTag(tag, id)) {
        forged(tag);
        continue;
      }
      // Salt: the event's `data`, or the event itself when it has none
      const data = 'data' in ev ? ev.data : ev;
      if (!isEventMap(data)) {
        refuse(tag, 'not-a-map', `Refusing event ${traceTag(tag)} from minion ${id}: its data is not a map`);
        continue;
      }
      effects.events.push({ tag, data });
      if (pretag) effects.events.push({ tag: `${pretag}/${tag}`, data });
    }
  } else if (typeof load.tag === 'string') {
    if (validMinionTag(load.tag, id)) effects.events.push({ tag: load.tag, data: { ...load } });
    else forged(load.tag);
  }
  return null;
}
