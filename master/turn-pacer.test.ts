import { describe, expect, it } from 'vitest';
import { RequestQueue } from './request-queue.js';
import { TurnPacer } from './turn-pacer.js';

const frame = (id: string): Buffer => Buffer.from(id);
const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('TurnPacer', () => {
  it('lets perTurn requests through a RequestQueue per turn, in order', async () => {
    const pacer = new TurnPacer(3);
    let turn = 0;
    let ticking = true;
    const tick = (): void => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const started: { id: string; turn: number }[] = [];
    const q = new RequestQueue(pacer, (_e, _p, id) => {
      pacer.started();
      started.push({ id: id as string, turn });
    });
    for (let i = 0; i < 8; i++) q.offer([], frame(`m${i}`), `m${i}`);
    expect(started.map((s) => s.id)).toEqual(['m0', 'm1', 'm2']);
    expect(q.backlog).toBe(5);
    while (q.backlog > 0) await nextTurn();
    ticking = false;
    expect(started.map((s) => s.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7']);
    const perTurn = new Map<number, number>();
    for (const s of started) perTurn.set(s.turn, (perTurn.get(s.turn) ?? 0) + 1);
    expect(Math.max(...perTurn.values())).toBe(3);
    expect(perTurn.size).toBe(3);
  });

  it('has room again in a later turn after a quiet one', async () => {
    const pacer = new TurnPacer(2);
    pacer.started();
    pacer.started();
    expect(pacer.whenAvailable()).toBeInstanceOf(Promise);
    await nextTurn();
    expect(pacer.whenAvailable()).toBeUndefined();
  });

  it('holds new requests while maxRunning are under way, and lets one go per finish', async () => {
    const pacer = new TurnPacer(100, 2);
    const started: string[] = [];
    const q = new RequestQueue(pacer, (_e, _p, id) => {
      pacer.started();
      started.push(id as string);
    });
    for (const id of ['a', 'b', 'c', 'd']) q.offer([], frame(id), id);
    await nextTurn();
    expect(started).toEqual(['a', 'b']);
    expect(pacer.running).toBe(2);
    pacer.finished();
    await nextTurn();
    expect(started).toEqual(['a', 'b', 'c']);
    pacer.finished();
    pacer.finished();
    await nextTurn();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(q.backlog).toBe(0);
  });
});
