/**
 * `salt-run state.event [tagmatch] [count=N] [quiet=True] [pretty=True]`: prints the master's
 * event bus as it goes by, one `<tag>\t<json data>` line per event (Salt's
 * `salt/runners/state.py:event`). Like Salt's, it runs in the salt-run process itself: it only
 * listens, and stops when salt-run stops (Ctrl-C) or after `count` matching events.
 */
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { splitArgs } from '../../kernel/jobs/args.js';
import { pyTruthy } from '../../kernel/python/repr.js';
import { globMatch } from '../../kernel/targeting/glob.js';
import { pyReMatch } from '../../kernel/targeting/py-regex.js';
import { renderJson } from '../../outputters/json.js';

export interface StateEventOptions {
  tagmatch: string;
  count: number;
  quiet: boolean;
  pretty: boolean;
}

/** Salt's `event(tagmatch='*', count=-1, quiet=False, sock_dir=None, pretty=False, node='master')`. */
export function stateEventOptions(arg: readonly unknown[]): StateEventOptions {
  const { args, kwargs } = splitArgs(arg);
  const pick = (i: number, name: string): unknown => (kwargs[name] !== undefined ? kwargs[name] : args[i]);
  const count = Number(pick(1, 'count') ?? -1);
  return {
    tagmatch: String(pick(0, 'tagmatch') ?? '*'),
    count: Number.isFinite(count) ? count : -1,
    quiet: pyTruthy(pick(2, 'quiet') ?? false),
    pretty: pyTruthy(pick(4, 'pretty') ?? false),
  };
}

/**
 * Salt's `expr_match` over a tag: the rule of modules/_expr-match.ts, built here from the kernel's
 * own files because the salt-run bundle cannot load the util door (it brings yaml and zod);
 * state-event.test.ts checks that the two agree.
 */
export function tagMatches(tag: string, expr: string): boolean {
  if (globMatch(expr, tag)) return true;
  try {
    return pyReMatch(`\\A${expr}\\Z`, tag);
  } catch {
    return false;
  }
}

/** Streams matching events to `write` until `count` is reached or `signal` aborts. */
export async function streamEvents(
  config: ResolvedMasterConfig,
  o: StateEventOptions,
  write: (line: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const listener = new EventListener(masterEventAddresses(config.sock_dir), ['']);
  signal?.addEventListener('abort', () => listener.close(), { once: true });
  await listener.ready();
  let left = o.count;
  for await (const ev of listener) {
    if (!tagMatches(ev.tag, o.tagmatch)) continue;
    if (!o.quiet)
      write(`${ev.tag}\t${renderJson(ev.data, { color: false, indent: o.pretty ? 'pretty' : null })}\n`);
    if (left > 0 && --left === 0) break;
  }
  listener.close();
}
