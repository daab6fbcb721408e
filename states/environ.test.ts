import { afterEach, describe, expect, it } from 'vitest';
import environMod from '../modules/environ.js';
import { moduleCtx, runState } from './_test-ctx.js';
import environ from './environ.js';

// Throwaway variables of this test process; expectations: Salt 3006.18's returns for the same steps.
const ctx = moduleCtx([environMod]);
const st = (kw: Record<string, unknown>, test = false) => runState(environ, 'setenv', kw, { ctx, test });
afterEach(() => {
  for (const k of ['TSALT_T_ONE', 'TSALT_T_A', 'TSALT_T_B']) delete process.env[k];
});

describe('environ.setenv', () => {
  it('predicts, sets, then finds the values set', async () => {
    const kw = { name: 'any', value: { TSALT_T_A: 'a', TSALT_T_B: false } };
    expect(await st(kw, true)).toEqual({
      name: 'any',
      changes: { TSALT_T_A: 'a', TSALT_T_B: '' },
      result: true,
      comment: 'Environ values will be changed',
    });
    expect(await st(kw)).toEqual({
      name: 'any',
      changes: { TSALT_T_A: 'a', TSALT_T_B: '' },
      result: true,
      comment: 'Environ values were set',
    });
    expect(process.env.TSALT_T_A).toBe('a');
    expect(process.env.TSALT_T_B).toBe('');
    expect(await st(kw)).toMatchObject({
      changes: {},
      comment: 'Environ values were already set with the correct values',
    });
  });

  it('false_unsets removes a variable; a bad value fails', async () => {
    process.env.TSALT_T_ONE = 'x';
    expect(await st({ name: 'TSALT_T_ONE', value: false, false_unsets: true, permanent: true })).toEqual({
      name: 'TSALT_T_ONE',
      changes: { TSALT_T_ONE: null },
      result: true,
      comment: 'Environ values were set',
    });
    expect('TSALT_T_ONE' in process.env).toBe(false);
    expect(await st({ name: 'x', value: [1] })).toMatchObject({
      result: false,
      comment: 'Environ value must be string, dict or False',
    });
  });

  it('clear_all lists every other variable as unset in test mode', async () => {
    const r = await st({ name: 'TSALT_T_ONE', value: 'v', clear_all: true, false_unsets: true }, true);
    expect(r.changes).toMatchObject({ PATH: null, TSALT_T_ONE: 'v' });
  });
});
