/**
 * Salt's batch mode (`salt -b N|N%`, salt/cli/batch.py): find the minions that answer a
 * `test.ping`, then keep at most N of them busy, publishing to the next ones (as a `list`
 * target) as earlier ones return; `--batch-wait` holds a freed slot for a while, `--failhard`
 * stops publishing after the first failing return.
 */
import { SALT_ERR_INVOCATION } from '../errors.js';
import type { JobReturn } from '../jobs/types.js';
import type { LocalClient, NoReturnReason, PublishOptions } from './local-client.js';

export interface BatchOptions extends PublishOptions {
  /** `N` minions or `N%` of the responding minions. */
  size: string;
  /** Seconds a freed slot stays unused (`--batch-wait`). */
  wait: number;
  failhard: boolean;
  /** Seconds a minion has to return (`-t`). */
  timeout: number;
}

export type BatchEvent =
  | { type: 'start'; jid: string; minions: string[] }
  | { type: 'return'; id: string; ret: JobReturn }
  | { type: 'noReturn'; id: string; reason: NoReturnReason }
  | { type: 'failhard'; id: string };

/** Salt's `get_bnum`: a count, or a percentage of the minions (at least 1). */
export function batchSize(spec: string, total: number): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(spec);
  if (!m)
    throw new SALT_ERR_INVOCATION(
      `invalid batch size ${JSON.stringify(spec)}: use a number or a percentage such as 10%`,
    );
  const n = Number(m[1]);
  if (m[2] === '%') return Math.max(1, Math.floor((total * n) / 100));
  if (!Number.isInteger(n) || n < 1)
    throw new SALT_ERR_INVOCATION(`invalid batch size ${JSON.stringify(spec)}: it must be at least 1`);
  return n;
}

function failed(ret: JobReturn): boolean {
  const rc = ret.retcode;
  return typeof rc === 'number' ? rc !== 0 : Object.values(rc ?? {}).some((c) => c !== 0);
}

/**
 * Runs a batch over `minions` (the responding ones, in order). Yields each sub-batch start,
 * each return, each minion given up on, and a failhard stop.
 */
export async function* runBatch(
  client: LocalClient,
  minions: readonly string[],
  opts: BatchOptions,
): AsyncGenerator<BatchEvent> {
  const size = batchSize(opts.size, minions.length);
  const queue = [...minions];
  const active = new Map<string, { jid: string; deadline: number }>();
  const slotsFreeAt: number[] = [];
  let stopping = false;
  while ((queue.length > 0 && !stopping) || active.size > 0) {
    const now = Date.now();
    const held = slotsFreeAt.filter((t) => t > now).length;
    const free = size - active.size - held;
    if (!stopping && free > 0 && queue.length > 0) {
      const next = queue.splice(0, free);
      const pub = await client.publish({ ...opts, tgt: next, tgtType: 'list' });
      for (const id of next) active.set(id, { jid: pub.jid, deadline: Date.now() + opts.timeout * 1000 });
      yield { type: 'start', jid: pub.jid, minions: next };
      continue;
    }
    const deadlines = [...active.values()].map((a) => a.deadline);
    const nextSlot = slotsFreeAt.filter((t) => t > now);
    const until = Math.min(...deadlines, ...(queue.length > 0 && !stopping ? nextSlot : []), now + 60_000);
    const ev = await client.nextEvent(until);
    if (ev) {
      const m = /^salt\/job\/([^/]+)\/ret\/(.+)$/.exec(ev.tag);
      const entry = m ? active.get(m[2] as string) : undefined;
      if (m && entry && entry.jid === m[1]) {
        const id = m[2] as string;
        active.delete(id);
        slotsFreeAt.push(Date.now() + opts.wait * 1000);
        const ret = ev.data as unknown as JobReturn;
        yield { type: 'return', id, ret };
        if (opts.failhard && failed(ret) && !stopping) {
          stopping = true;
          yield { type: 'failhard', id };
        }
      }
      continue;
    }
    const t = Date.now();
    for (const [id, a] of active) {
      if (a.deadline <= t) {
        active.delete(id);
        slotsFreeAt.push(t + opts.wait * 1000);
        yield { type: 'noReturn', id, reason: 'No response' };
      }
    }
  }
}

/** The minions that answer a `test.ping` to the target within `timeout` seconds (Salt's gather_minions). */
export async function respondingMinions(
  client: LocalClient,
  target: Pick<PublishOptions, 'tgt' | 'tgtType' | 'delimiter'>,
  timeout: number,
): Promise<{ up: string[]; down: string[] }> {
  const pub = await client.publish({ ...target, fun: 'test.ping', arg: [] });
  const up: string[] = [];
  const down: string[] = [];
  for await (const r of client.collect(pub, { timeout, gatherJobTimeout: timeout })) {
    if ('ret' in r) up.push(r.id);
    else down.push(r.id);
  }
  return { up, down };
}
