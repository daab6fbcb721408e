/**
 * Salt's `salt.wait_for_event` (`salt/states/saltmod.py`), for orchestration: listens on the
 * master's event bus until an event whose tag matches `name` (fnmatch) has carried each of
 * `id_list` in its data's `event_id` key (or in `data.data`; a list there counts each id it
 * holds), or until `timeout` seconds pass. `changes.minions_seen` lists the ids seen, in order.
 * tsalt listens on the master's bus only (`node: master`, Salt's default).
 */
import { listenToMasterBus } from '../client/master-access.js';
import { fnmatchRegExp } from '../modules/_fnmatch.js';
import type { StateContext, StateReturn } from '../plugins/states/index.js';

export interface WaitArgs {
  name: string;
  id_list: unknown[];
  event_id: string;
  timeout: number;
  node: string;
}

/** Python's `str(float)` of a duration in seconds (always with a fraction). */
const seconds = (ms: number): string => (Number.isInteger(ms / 1000) ? `${ms / 1000}.0` : String(ms / 1000));

/** The ids of `idList` an event's data names, in `idList`'s order. */
function idsIn(data: Record<string, unknown>, eventId: string, idList: readonly unknown[]): unknown[] | null {
  let val = data[eventId];
  if (val === undefined && data.data && typeof data.data === 'object')
    val = (data.data as Record<string, unknown>)[eventId];
  if (val === undefined || val === null) return null;
  if (Array.isArray(val)) return idList.filter((id) => val.includes(id));
  return idList.includes(val) ? [val] : [];
}

export async function waitForEvent(ctx: StateContext, a: WaitArgs): Promise<StateReturn> {
  const ret: StateReturn = { name: a.name, changes: {}, comment: '', result: false };
  if (ctx.test) return { ...ret, result: null, comment: `Orchestration would wait for event '${a.name}'` };
  if (a.node !== 'master')
    return { ...ret, comment: `tsalt waits for events on the master's bus only, not node '${a.node}'` };
  const tag = fnmatchRegExp(a.name);
  // the listener subscribes by prefix: the pattern's text before its first wildcard
  const prefix = a.name.slice(0, a.name.search(/[*?[]|$/));
  const listener = await listenToMasterBus(
    { sock_dir: ctx.opts.sock_dir } as Parameters<typeof listenToMasterBus>[0],
    [prefix],
  );
  const events = listener[Symbol.asyncIterator]();
  const idList = [...a.id_list];
  const seen: unknown[] = [];
  const start = Date.now();
  const deadline = start + a.timeout * 1000;
  let timer: NodeJS.Timeout | undefined;
  try {
    while (idList.length > 0) {
      const timeout = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()));
      });
      const next = await Promise.race([events.next(), timeout]);
      clearTimeout(timer);
      if (next === null || next.done) break;
      const ev = next.value;
      if (!tag.test(ev.tag) || !ev.data || typeof ev.data !== 'object') continue;
      for (const id of idsIn(ev.data as Record<string, unknown>, a.event_id, idList) ?? []) {
        idList.splice(idList.indexOf(id), 1);
        seen.push(id);
      }
      if (seen.length > 0) ret.changes.minions_seen = [...seen];
    }
  } finally {
    clearTimeout(timer);
    listener.close();
  }
  if (idList.length > 0) return { ...ret, comment: 'Timeout value reached.' };
  return { ...ret, result: true, comment: `All events seen in ${seconds(Date.now() - start)} seconds.` };
}
