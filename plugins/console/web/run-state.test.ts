import { describe, expect, it } from 'vitest';
import { type MinionResult, resultOf, settle, tally } from './run-state.js';

describe('run end states', () => {
  it('a return is returned, or failed with its retcode', () => {
    expect(resultOf('m0', { return: true, retcode: 0, success: true })).toEqual({
      id: 'm0',
      state: 'returned',
      retcode: 0,
      ret: true,
    });
    expect(resultOf('m0', { return: 'boom', retcode: 2, success: false })).toMatchObject({
      state: 'failed',
      retcode: 2,
    });
    expect(resultOf('m0', { return: 'x', success: false })).toMatchObject({ state: 'failed', retcode: 1 });
    expect(resultOf('m0', { return: {}, retcode: { a: 0, b: 3 } })).toMatchObject({
      state: 'failed',
      retcode: 3,
    });
    expect(
      resultOf('m0', { return: 'Minion did not return. [Not connected]', state: 'not_connected' }),
    ).toEqual({
      id: 'm0',
      state: 'not_connected',
    });
    expect(resultOf('m0', { return: 'x', state: 'no_response' }).state).toBe('no_return');
  });

  it('at the timeout the silent minions did not return, or were not connected', () => {
    const r = new Map<string, MinionResult>([
      ['a', { id: 'a', state: 'returned', retcode: 0, ret: true }],
      ['b', { id: 'b', state: 'waiting' }],
      ['c', { id: 'c', state: 'waiting' }],
    ]);
    const s = settle(r, new Set(['a', 'b']));
    expect([...s.values()].map((x) => x.state)).toEqual(['returned', 'no_return', 'not_connected']);
    expect(settle(r, undefined).get('c')?.state).toBe('no_return');
    expect(tally(s.values())).toEqual({ waiting: 0, returned: 1, failed: 0, no_return: 1, not_connected: 1 });
  });
});
