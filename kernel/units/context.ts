/**
 * The context a process or engine runs with: its options validated by its own schema, the
 * signal that stops it, and events. On the master they are fired on and read from the master
 * bus; on a minion fired to the master (`_minion_event`) and read from the minion's own bus.
 */
import { EventFirer, EventListener, masterEventAddresses } from '../bus/event-bus.js';
import { SALT_ERR_PLUGIN_OPTIONS, SALT_ERR_PROCESS_MASTER_ONLY } from '../errors.js';
import type { UnitLogger } from '../loader/define.js';
import { summarizeIssues } from '../plugin-factory.js';
import type { EventStream, ProcessContext, ProcessDef } from './define.js';

/** A context plus the release of what it opened. */
export type ClosableContext = ProcessContext & { close(): Promise<void> };

/** The unit's options, checked by its `options` schema (the raw mapping when it has none). */
export function unitOptions(
  def: ProcessDef,
  rawOptions: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  if (!def.options) return rawOptions;
  const parsed = def.options.safeParse(rawOptions);
  if (!parsed.success) throw new SALT_ERR_PLUGIN_OPTIONS(def.name, summarizeIssues(parsed.error.issues));
  return parsed.data as Readonly<Record<string, unknown>>;
}

/** A context for `def` on the master bus in `sockDir`; `close()` releases its sockets. */
export function masterProcessContext(
  def: ProcessDef,
  opts: Readonly<Record<string, unknown>>,
  rawOptions: Readonly<Record<string, unknown>>,
  log: UnitLogger,
  signal: AbortSignal,
): ClosableContext {
  const options = unitOptions(def, rawOptions);
  const addrs = masterEventAddresses(String(opts.sock_dir));
  let firer: EventFirer | undefined;
  const streams = new Set<EventListener>();
  return {
    name: def.name,
    opts,
    options,
    log,
    signal,
    async fire(tag, data) {
      firer ??= new EventFirer(addrs);
      firer.fire(tag, { ...data });
    },
    listen(prefixes): EventStream {
      const listener = new EventListener(addrs, prefixes);
      streams.add(listener);
      return {
        [Symbol.asyncIterator]: () => listener[Symbol.asyncIterator](),
        close: () => {
          streams.delete(listener);
          listener.close();
        },
      };
    },
    async close() {
      for (const s of streams) s.close();
      streams.clear();
      await firer?.close();
    },
  };
}

/**
 * The `_minion_event` load (Salt's `events` form) for one event a minion's engine fires: its tag
 * and data plus the minion's `id`; the master's tag rules apply as for `event.send`.
 */
export function minionEngineEventLoad(id: string, tag: string, data: Readonly<Record<string, unknown>>) {
  const body: Record<string, unknown> = { ...data };
  if (!('id' in body)) body.id = id;
  return { cmd: '_minion_event', id, pretag: null, events: [{ tag, data: body }] };
}

/**
 * A context for `def` on minion `id`: `fire` sends each event to the master with `request`
 * (the minion's master link); `listen` reads the minion's own bus (`link.listen`) or throws.
 */
export function minionProcessContext(
  def: ProcessDef,
  opts: Readonly<Record<string, unknown>>,
  rawOptions: Readonly<Record<string, unknown>>,
  log: UnitLogger,
  signal: AbortSignal,
  link: {
    id: string;
    request(load: Record<string, unknown>): Promise<unknown>;
    listen?: ProcessContext['listen'];
  },
): ClosableContext {
  const options = unitOptions(def, rawOptions);
  return {
    name: def.name,
    opts,
    options,
    log,
    signal,
    async fire(tag, data) {
      await link.request(minionEngineEventLoad(link.id, tag, data));
    },
    listen(prefixes): EventStream {
      if (link.listen) return link.listen(prefixes);
      throw new SALT_ERR_PROCESS_MASTER_ONLY('ctx.listen');
    },
    async close() {},
  };
}
