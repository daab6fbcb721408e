/**
 * salt-api's `local_batch` client (Salt's `cmd_batch`): the minions answering a `test.ping`,
 * then the sliding-window batch engine of `salt -b` (client/batch.ts) driven over the
 * API's shared master link: at most `batch` (N or N%) minions busy, the next one published to
 * as soon as one returns. One entry `{minion: return}` per minion in the order they return;
 * a minion that never returns gets `{minion: {}}` as Salt's batch gives it.
 */
import { type BatchDriver, batchSize, runBatch } from '../../client/batch.js';
import type { PublishOptions } from '../../client/local-client.js';
import type { SaltEvent } from '../../kernel/index.js';
import type { Chunk } from './body.js';
import { NETAPI_ERR_BAD_LOWSTATE, NETAPI_ERR_MASTER } from './errors.js';
import { askTargets, shapeReturns, stillRunning } from './gather.js';
import {
  type ClientEnv,
  checkLocal,
  type Identity,
  type LocalCall,
  localCall,
  timeoutOf,
} from './local-call.js';

/** The batch options of a chunk, checked before anything is published. */
export function batchOptions(chunk: Chunk): { size: string; wait: number; failhard: boolean } {
  const raw = chunk.batch ?? chunk.batch_size ?? '10%';
  if (typeof raw !== 'string' && typeof raw !== 'number')
    throw new NETAPI_ERR_BAD_LOWSTATE(
      `"batch" must be a number of minions or a percentage such as "10%", not ${JSON.stringify(raw)}`,
    );
  const size = String(raw);
  batchSize(size, 1); // throws SALT_ERR_INVOCATION (400) on a bad size
  const w = chunk.batch_wait ?? 0;
  const wait = typeof w === 'string' && w.trim() !== '' ? Number(w) : w;
  if (typeof wait !== 'number' || !Number.isFinite(wait) || wait < 0)
    throw new NETAPI_ERR_BAD_LOWSTATE(`"batch_wait" must be a number of seconds, not ${JSON.stringify(w)}`);
  const f = chunk.failhard ?? false;
  if (typeof f !== 'boolean') throw new NETAPI_ERR_BAD_LOWSTATE('"failhard" must be true or false');
  return { size, wait: Math.trunc(wait), failhard: f };
}

/** The batch engine's view of the master link: publishes for `who`, the job returns it started. */
class LinkDriver implements BatchDriver {
  readonly #events: SaltEvent[] = [];
  readonly #stops: (() => void)[] = [];
  #wake: (() => void) | undefined;

  constructor(
    readonly env: ClientEnv,
    readonly who: Identity,
    readonly call: LocalCall,
    readonly hardStop: number,
  ) {}

  async publish(opts: PublishOptions): Promise<{ jid: string }> {
    const pub = await this.env.link.publish({
      tgt: opts.tgt,
      fun: this.call.fun,
      arg: this.call.arg,
      tgtType: 'list',
      ret: this.call.ret,
      user: this.who.user,
    });
    if (!pub.jid) throw new NETAPI_ERR_MASTER(`the batch publish matched nothing: ${pub.error ?? 'no jid'}`);
    this.#stops.push(
      this.env.link.watchJob(pub.jid, (ev) => {
        if (!ev.tag.includes('/ret/')) return;
        this.#events.push(ev);
        this.#wake?.();
      }),
    );
    return { jid: pub.jid };
  }

  async nextEvent(deadline: number): Promise<SaltEvent | undefined> {
    if (this.#events.length === 0) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.#wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.#wake = undefined;
    }
    return this.#events.shift();
  }

  async stillRunning(jid: string, ids: string[]): Promise<string[]> {
    if (Date.now() >= this.hardStop) return [];
    return stillRunning(this.env, jid, ids, this.who.user);
  }

  close(): void {
    for (const stop of this.#stops) stop();
  }
}

export async function runBatchClient(env: ClientEnv, who: Identity, chunk: Chunk): Promise<unknown[]> {
  const asked = localCall(chunk);
  const batch = batchOptions(chunk);
  const call = await checkLocal(env, who, asked);
  const timeout = timeoutOf(env, chunk);
  const alive = [...(await askTargets(env, call, 'test.ping', timeout, who.user)).keys()].sort();
  if (alive.length === 0) return [];
  const driver = new LinkDriver(env, who, call, Date.now() + env.opts.sync_timeout_max * 1000);
  const out: unknown[] = [];
  try {
    for await (const ev of runBatch(driver, alive, {
      tgt: alive,
      fun: call.fun,
      arg: call.arg,
      ...batch,
      timeout,
    })) {
      if (ev.type === 'return')
        out.push(
          chunk.full_return === true
            ? shapeReturns(new Map([[ev.id, ev.ret]]), true)
            : { [ev.id]: ev.ret.return },
        );
      else if (ev.type === 'noReturn') out.push({ [ev.id]: {} });
    }
  } finally {
    driver.close();
  }
  return out;
}
