import { afterAll, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import environ from './environ.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const call = async (fun: string, arg: unknown[] = []) => (await invoke(environ, fun, arg, fakeCtx())).value;
afterAll(() => {
  for (const k of ['TSALT_T1', 'TSALT_T2', 'TSALT_T3']) delete process.env[k];
});

describe('environ', () => {
  it('reads and sets the process environment as Salt 3006 does', async () => {
    process.env.TSALT_T1 = 'one';
    expect(await call('get', ['TSALT_T1'])).toBe('one');
    expect(await call('get', ['TSALT_NOPE', kw({ default: 'none' })])).toBe('none');
    expect(await call('get', ['TSALT_NOPE'])).toBe('');
    expect(await call('has_value', ['TSALT_T1'])).toBe(true);
    expect(await call('has_value', ['TSALT_T1', 'two'])).toBe(false);
    expect(await call('item', [['TSALT_T1', 'TSALT_NOPE']])).toEqual({ TSALT_T1: 'one', TSALT_NOPE: '' });
    expect(await call('setval', ['TSALT_T1', false])).toBe('');
    expect(await call('setval', ['TSALT_T1', false, kw({ false_unsets: true })])).toBe(null);
    expect(process.env.TSALT_T1).toBeUndefined();
    expect(await call('setval', ['TSALT_T1', 5])).toBe(false);
    expect(await call('setenv', [{ TSALT_T2: 'two', TSALT_T3: false }])).toEqual({
      TSALT_T2: 'two',
      TSALT_T3: '',
    });
    expect(await call('setenv', [{ TSALT_T2: 1 }])).toBe(false);
    expect((await call('items')) as Record<string, string>).toMatchObject({ TSALT_T2: 'two' });
  });
});
