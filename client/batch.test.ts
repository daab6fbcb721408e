import { describe, expect, it } from 'vitest';
import type { SaltEvent } from '../kernel/jobs/types.js';
import { type BatchDriver, type BatchEvent, type BatchOptions, batchSize, runBatch } from './batch.js';
import type { PublishOptions } from './local-client.js';

describe('batchSize (Salt get_bnum)', () => {
  it.each([
    ['1', 10, 1],
    ['3', 10, 3],
    ['25%', 10, 2],
    ['10%', 4, 1],
    ['100%', 7, 7],
    ['50%', 1, 1],
  ])('%s of %i minions is %i', (spec, total, expected) => {
    expect(batchSize(spec, total)).toBe(expected);
  });
  it.each(['0', '-1', 'x', '', '1.5', '%'])('%j is refused with SALT_ERR_INVOCATION', (spec) => {
    expect(() => batchSize(spec, 10)).toThrow(expect.objectContaining({ code: 'SALT_ERR_INVOCATION' }));
  });
});

/** A fake client: each minion returns `durations[id]` ms after the publish that reaches it. */
class FakeDriver implements BatchDriver {
  readonly started: { at: number; minions: string[] }[] = [];
  readonly #queue: SaltEvent[] = [];
  #wake: (() => void) | undefined;
  #n = 0;
  readonly t0 = Date.now();
  constructor(
    readonly durations: Record<string, number>,
    readonly retcodes: Record<string, number> = {},
    readonly running: (jid: string, ids: string[]) => string[] | undefined = () => undefined,
  ) {}

  async publish(opts: PublishOptions): Promise<{ jid: string }> {
    const jid = `2026000000000000000${this.#n++}`;
    const minions = opts.tgt as string[];
    this.started.push({ at: Date.now() - this.t0, minions });
    for (const id of minions) {
      const ms = this.durations[id];
      if (ms === undefined) continue; // never returns
      setTimeout(() => {
        this.#queue.push({
          tag: `salt/job/${jid}/ret/${id}`,
          data: { id, jid, return: true, retcode: this.retcodes[id] ?? 0 },
        });
        this.#wake?.();
      }, ms);
    }
    return { jid };
  }

  async nextEvent(deadline: number): Promise<SaltEvent | undefined> {
    if (this.#queue.length === 0) {
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.max(0, deadline - Date.now()));
        this.#wake = () => {
          clearTimeout(t);
          r();
        };
      });
      this.#wake = undefined;
    }
    return this.#queue.shift();
  }

  async stillRunning(jid: string, ids: string[]): Promise<string[]> {
    return this.running(jid, ids) ?? [];
  }
}

async function drain(driver: BatchDriver, minions: string[], opts: Partial<BatchOptions>) {
  const out: BatchEvent[] = [];
  for await (const ev of runBatch(driver, minions, {
    tgt: '*',
    fun: 'test.sleep',
    arg: [],
    size: '1',
    wait: 0,
    failhard: false,
    timeout: 5,
    ...opts,
  }))
    out.push(ev);
  return out;
}

const returned = (evs: BatchEvent[]) => evs.flatMap((e) => (e.type === 'return' ? [e.id] : []));

describe('runBatch (sliding window)', () => {
  it('publishes to the next minion as soon as one returns, not after the whole round', async () => {
    const d = new FakeDriver({ a: 50, b: 400, c: 50 });
    const evs = await drain(d, ['a', 'b', 'c'], { size: '2' });
    expect(returned(evs)).toEqual(['a', 'c', 'b']);
    expect(d.started.map((s) => s.minions)).toEqual([['a', 'b'], ['c']]);
    // c started when a returned, long before b did
    expect(d.started[1]?.at).toBeLessThan(300);
  });

  it('batch_wait holds a freed slot', async () => {
    const d = new FakeDriver({ a: 10, b: 10 });
    await drain(d, ['a', 'b'], { wait: 0.3 });
    expect(d.started[1]?.at).toBeGreaterThanOrEqual(290);
  });

  it('gives up on a minion after the timeout unless find_job says it still runs', async () => {
    const d = new FakeDriver({ a: 10 });
    const evs = await drain(d, ['a', 'silent'], { size: '2', timeout: 0.1 });
    expect(evs).toContainEqual({ type: 'noReturn', id: 'silent', reason: 'No response' });
    let asked = 0;
    const slow = new FakeDriver({ a: 350 }, {}, (_jid, ids) => (asked++ < 5 ? ids : []));
    const evs2 = await drain(slow, ['a'], { timeout: 0.1 });
    expect(returned(evs2)).toEqual(['a']);
    expect(asked).toBeGreaterThan(0);
  });

  it('failhard stops publishing after a failing return', async () => {
    const d = new FakeDriver({ a: 10, b: 10, c: 10 }, { a: 1 });
    const evs = await drain(d, ['a', 'b', 'c'], { failhard: true });
    expect(evs.map((e) => e.type)).toEqual(['start', 'return', 'failhard']);
  });
});
