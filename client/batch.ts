/**
 * Salt's batch mode (`salt -b N|N%`, salt/cli/batch.py): find the minions that answer a
 * `test.ping`, then keep at most N of them busy, publishing to the next ones (as a `list`
 * target) as soon as earlier ones return (a sliding window, not fixed rounds); `--batch-wait`
 * holds a freed slot for a while, `--failhard` stops publishing after the first failing return.
 * The engine drives anything that can publish and read job events: the `salt` CLI's
 * LocalClient, or salt-api's `local_batch` client over its shared master link.
 */
import { SALT_ERR_INVOCATION } from '../kernel/errors.js';
import type { JobReturn, SaltEvent } from '../kernel/jobs/types.js';
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

/** What the engine needs of a client (LocalClient is one). */
export interface BatchDriver {
  publish(opts: PublishOptions): Promise<{ jid: string }>;
  /** The next job event, or undefined once `deadline` (ms since the epoch) passes. */
  nextEvent(deadline: number): Promise<SaltEvent | undefined>;
  /**
   * Optional Salt `saltutil.find_job` check, asked when minions' timeout passes: which of
   * `ids` still run `jid`. Those get another `timeout`; without it they are given up on.
   */
  stillRunning?(jid: string, ids: string[]): Promise<string[]>;
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

const RET_TAG = /^salt\/job\/([^/]+)\/ret\/(.+)$/;

/**
 * Runs a batch over `minions` (the responding ones, in order). Yields each publish to newly
 * freed slots, each return, each minion given up on, and a failhard stop.
 */
export async function* runBatch(
  client: BatchDriver,
  minions: readonly string[],
  opts: BatchOptions,
): AsyncGenerator<BatchEvent> {
  const size = batchSize(opts.size, minions.length);
  const queue = [...minions];
  const active = new Map<string, { jid: string; deadline: number }>();
  const slotsFreeAt: number[] = [];
  let stopping = false;
  const free = (t: number) => slotsFreeAt.push(t + opts.wait * 1000);
  while ((queue.length > 0 && !stopping) || active.size > 0) {
    const now = Date.now();
    const held = slotsFreeAt.filter((t) => t > now).length;
    const open = size - active.size - held;
    if (!stopping && open > 0 && queue.length > 0) {
      const next = queue.splice(0, open);
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
      const m = RET_TAG.exec(ev.tag);
      const entry = m ? active.get(m[2] as string) : undefined;
      if (m && entry && entry.jid === m[1]) {
        const id = m[2] as string;
        active.delete(id);
        free(Date.now());
        const ret = ev.data as unknown as JobReturn;
        yield { type: 'return', id, ret };
        if (opts.failhard && failed(ret) && !stopping) {
          stopping = true;
          yield { type: 'failhard', id };
        }
      }
      continue;
    }
    yield* expire(client, active, opts.timeout, free);
  }
}

/** Minions past their deadline: a find_job check where the driver has one, else given up on. */
async function* expire(
  client: BatchDriver,
  active: Map<string, { jid: string; deadline: number }>,
  timeout: number,
  free: (t: number) => void,
): AsyncGenerator<BatchEvent> {
  const byJid = new Map<string, string[]>();
  const t = Date.now();
  for (const [id, a] of active) if (a.deadline <= t) byJid.set(a.jid, [...(byJid.get(a.jid) ?? []), id]);
  for (const [jid, ids] of byJid) {
    const running = new Set(client.stillRunning ? await client.stillRunning(jid, ids) : []);
    for (const id of ids) {
      const a = active.get(id);
      if (!a) continue; // returned meanwhile
      if (running.has(id)) {
        a.deadline = Date.now() + timeout * 1000;
        continue;
      }
      active.delete(id);
      free(Date.now());
      yield { type: 'noReturn', id, reason: 'No response' };
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
    // as Salt's batch: a listed minion the master has no key for is left out, not down
    else if (!pub.missing.includes(r.id)) down.push(r.id);
  }
  return { up, down };
}
