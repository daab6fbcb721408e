import { describe, expect, it } from 'vitest';
import { batchSubJob, settleBatch } from './batch-track.js';
import type { MinionResult } from './run-state.js';

describe('batch runs', () => {
  const sub = { fun: 'cmd.run', user: 'saltdev', tgt_type: 'list', minions: ['m0', 'm1'] };
  it("knows the batch's sub-jobs from their new events", () => {
    expect(batchSubJob('salt/job/20261127143900123456/new', sub, 'cmd.run', 'saltdev')).toEqual({
      jid: '20261127143900123456',
      minions: ['m0', 'm1'],
    });
    // the engine's test.ping probe (glob), another user's job, another function, a return
    expect(batchSubJob('salt/job/1/new', { ...sub, tgt_type: 'glob' }, 'cmd.run', 'saltdev')).toBeUndefined();
    expect(batchSubJob('salt/job/1/new', sub, 'cmd.run', 'other')).toBeUndefined();
    expect(batchSubJob('salt/job/1/new', sub, 'test.ping', 'saltdev')).toBeUndefined();
    expect(batchSubJob('salt/job/1/ret/m0', sub, 'cmd.run', 'saltdev')).toBeUndefined();
  });

  it('settles with the answer; returns from the stream keep their retcode', () => {
    const live = new Map<string, MinionResult>([
      ['m0', { id: 'm0', state: 'failed', retcode: 3, ret: '' }],
      ['m1', { id: 'm1', state: 'waiting' }],
      ['m2', { id: 'm2', state: 'waiting' }],
    ]);
    const out = settleBatch(live, [{ m0: '' }, { m1: 'hi' }, { m3: { a: 1, retcode: 2 } }, { m4: {} }]);
    expect(out.get('m0')).toMatchObject({ state: 'failed', retcode: 3 });
    expect(out.get('m1')).toEqual({ id: 'm1', state: 'returned', retcode: 0, ret: 'hi' });
    expect(out.get('m2')).toEqual({ id: 'm2', state: 'no_return' });
    expect(out.get('m3')).toMatchObject({ state: 'failed', retcode: 2 });
    expect(out.get('m4')).toEqual({ id: 'm4', state: 'no_return' });
    expect(settleBatch(new Map(), 'not a list').size).toBe(0);
  });
});
