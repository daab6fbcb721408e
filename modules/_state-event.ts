/**
 * Salt's `state.event` execution function (`salt/modules/state.py`): watch the minion's own
 * event bus (or, with `node=master`, the master's in `sock_dir`) and print each event whose tag
 * matches, `<tag>\t<json>` (Python's `json.dumps`, sorted and indented with `pretty`), until
 * `count` matches have been seen or the job is stopped. It answers None, as Salt's.
 */
import { defineFunction, type ExecContext } from '../kernel/index.js';
import { EventListener, masterEventAddresses } from '../kernel/services.js';
import { pyTruthy } from '../kernel/util.js';
import { pyJson, pyJsonIndent } from '../plugins/renderers/index.js';
import { pyInt } from './_coerce.js';
import { exprMatch } from './_expr-match.js';
import { ownBusAddresses } from './_minion-bus.js';
import { cli } from './_state-calls.js';

export interface WatchOptions {
  tagmatch: string;
  count: number;
  quiet: boolean;
  sockDir: string;
  pretty: boolean;
  node: string;
}

/** Prints matching events with `write` until `count` of them (forever with -1) or the job's abort. */
export async function watchEvents(
  ctx: ExecContext,
  o: WatchOptions,
  write: (line: string) => void = (line) => process.stdout.write(line),
): Promise<null> {
  const addrs = o.node === 'master' ? masterEventAddresses(o.sockDir) : ownBusAddresses(o.sockDir, ctx.id);
  const listener = new EventListener(addrs, ['']);
  const stop = () => listener.close();
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    await listener.ready();
    let left = o.count;
    for await (const ev of listener) {
      if (!exprMatch(ev.tag, o.tagmatch)) {
        ctx.log.debug(`Skipping event tag: ${ev.tag}`);
        continue;
      }
      if (!o.quiet) {
        const data = o.pretty ? pyJsonIndent(ev.data, 4, { sortKeys: true }) : pyJson(ev.data);
        write(`${ev.tag}\t${data}\n`);
      }
      if (left > 0) left -= 1;
      if (left === 0) break;
    }
  } finally {
    ctx.signal.removeEventListener('abort', stop);
    listener.close();
  }
  return null;
}

export const eventFunctions = {
  event: defineFunction({
    args: (z) =>
      z.object({
        tagmatch: z.string().default('*'),
        count: pyInt(z).default(-1),
        quiet: z.unknown().default(false),
        sock_dir: z.string().nullish(),
        pretty: z.unknown().default(false),
        node: z.string().default('minion'),
      }),
    doc: `Watch Salt's event bus and block until the given tag is matched: each matching event is printed as its tag, a tab and its data as JSON; count=-1 listens forever, quiet prints nothing, pretty indents, node=master watches the master's bus in sock_dir.${cli('state.event pretty=True')}`,
    run: (ctx, a) =>
      watchEvents(ctx, {
        tagmatch: a.tagmatch ?? '*',
        count: a.count ?? -1,
        quiet: pyTruthy(a.quiet),
        pretty: pyTruthy(a.pretty),
        sockDir: a.sock_dir ?? String(ctx.opts.sock_dir ?? ''),
        node: a.node ?? 'minion',
      }),
  }),
};
