/**
 * The context a master-side process or engine runs with: events fired on and read from the
 * master bus, its options validated by its own schema, and the signal that stops it.
 */
import { EventFirer, EventListener, masterEventAddresses } from '../bus/event-bus.js';
import { SALT_ERR_PLUGIN_OPTIONS } from '../errors.js';
import type { UnitLogger } from '../loader/define.js';
import { summarizeIssues } from '../plugin-factory.js';
import type { EventStream, ProcessContext, ProcessDef } from './define.js';

/** A context for `def` on the master bus in `sockDir`; `close()` releases its sockets. */
export function masterProcessContext(
  def: ProcessDef,
  opts: Readonly<Record<string, unknown>>,
  rawOptions: Readonly<Record<string, unknown>>,
  log: UnitLogger,
  signal: AbortSignal,
): ProcessContext & { close(): Promise<void> } {
  let options: Readonly<Record<string, unknown>> = rawOptions;
  if (def.options) {
    const parsed = def.options.safeParse(rawOptions);
    if (!parsed.success) throw new SALT_ERR_PLUGIN_OPTIONS(def.name, summarizeIssues(parsed.error.issues));
    options = parsed.data as Readonly<Record<string, unknown>>;
  }
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
