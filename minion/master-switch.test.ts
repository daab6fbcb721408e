import { describe, expect, it } from 'vitest';
import type { MasterConnection } from './master-connection.js';
import { type MasterRoutes, MasterSwitch } from './master-switch.js';

/** A master's side as MasterSwitch uses it: records each load, answers or fails as told. */
function master(name: string, answer: 'ok' | 'no answer' | 'refused') {
  const got: Record<string, unknown>[] = [];
  const conn = {
    masterUri: `tcp://${name}:4506`,
    async send(load: Record<string, unknown>) {
      got.push(load);
      if (answer === 'no answer')
        throw Object.assign(new Error(`request to ${name} timed out`), { code: 'SALT_ERR_BUS_TIMEOUT' });
      if (answer === 'refused') throw Object.assign(new Error('refused'), { code: 'SALT_ERR_OTHER' });
      return `${name}:${String(load.cmd)}`;
    },
    async pillar() {
      if (answer === 'no answer')
        throw Object.assign(new Error('timed out'), { code: 'SALT_ERR_BUS_TIMEOUT' });
      return { who: name };
    },
    close() {},
  };
  return { conn: conn as unknown as MasterConnection, got };
}

/** Routes over `list` in order: the first one not marked down, and every one not down. */
function routes(list: MasterConnection[]): MasterRoutes & { downs: string[] } {
  const down = new Set<MasterConnection>();
  const downs: string[] = [];
  const up = () => list.filter((c) => !down.has(c));
  return {
    downs,
    first: () => up()[0] ?? list[0]!,
    all: () => (up().length > 0 ? up() : [list[0]!]),
    down(c) {
      down.add(c);
      downs.push(c.masterUri);
    },
  };
}

describe('MasterSwitch with a hot multi-master route', () => {
  it('sends events and the mine to every master that is up, other requests to the first', async () => {
    const a = master('a', 'ok');
    const b = master('b', 'ok');
    const sw = new MasterSwitch(a.conn);
    sw.route(routes([a.conn, b.conn]));
    for (const cmd of ['_minion_event', '_mine', '_mine_delete', '_mine_flush'])
      expect(await sw.send({ cmd })).toBe(`a:${cmd}`);
    expect(await sw.send({ cmd: '_mine_get' })).toBe('a:_mine_get');
    expect(await sw.send({ cmd: '_return' })).toBe('a:_return');
    expect(a.got.map((l) => l.cmd)).toEqual([
      '_minion_event',
      '_mine',
      '_mine_delete',
      '_mine_flush',
      '_mine_get',
      '_return',
    ]);
    expect(b.got.map((l) => l.cmd)).toEqual(['_minion_event', '_mine', '_mine_delete', '_mine_flush']);
  });

  it('a first master that gives no answer is marked down and the request goes to the next', async () => {
    const a = master('a', 'no answer');
    const b = master('b', 'ok');
    const r = routes([a.conn, b.conn]);
    const sw = new MasterSwitch(a.conn);
    sw.route(r);
    expect(await sw.send({ cmd: '_file_list' })).toBe('b:_file_list');
    expect(r.downs).toEqual(['tcp://a:4506']);
    expect(sw.masterUri).toBe('tcp://b:4506');
    expect(await sw.pillar({})).toEqual({ who: 'b' });
    // an event reaches b, and a is not asked again
    expect(await sw.send({ cmd: '_minion_event' })).toBe('b:_minion_event');
    expect(a.got).toHaveLength(1);
  });

  it('an answer that is an error is not sent elsewhere; none answering throws the first error', async () => {
    const a = master('a', 'refused');
    const b = master('b', 'ok');
    const sw = new MasterSwitch(a.conn);
    sw.route(routes([a.conn, b.conn]));
    await expect(sw.send({ cmd: '_pillar' })).rejects.toThrow('refused');
    expect(b.got).toHaveLength(0);
    const x = master('x', 'no answer');
    const y = master('y', 'no answer');
    const both = new MasterSwitch(x.conn);
    const r = routes([x.conn, y.conn]);
    both.route(r);
    await expect(both.send({ cmd: '_minion_event' })).rejects.toThrow('request to x timed out');
    expect(r.downs).toEqual(['tcp://x:4506', 'tcp://y:4506']);
  });
});
