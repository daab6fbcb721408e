import { describe, expect, it } from 'vitest';
import { fakeCtx } from './_fake-ctx.js';
import { checkResult, stateCall } from './_state-run.js';

describe('a state call', () => {
  it("takes the test flag, saltenv and pillar override as Salt's get_sls_opts does", () => {
    const ctx = fakeCtx({ opts: { cachedir: '/nonexistent', test: true, pillar: { a: { b: 1 } } } });
    const call = stateCall(ctx, { saltenv: 'dev', pillar: { a: { c: 2 } } });
    expect(call.test).toBe(true);
    expect(stateCall(ctx, { test: false }).test).toBe(false);
    expect(call.saltenv).toBe('dev');
    expect(stateCall(ctx, {}).saltenv).toBe('base');
    expect(call.pillar).toEqual({ a: { b: 1, c: 2 } });
    expect(() => stateCall(ctx, { pillar: 'x' })).toThrow(/Pillar data must be formatted as a dictionary/);
  });

  it('refuses another saltenv under lock_saltenv', () => {
    const ctx = fakeCtx({ opts: { cachedir: '/nonexistent', lock_saltenv: true, saltenv: 'prod' } });
    expect(() => stateCall(ctx, { saltenv: 'dev' })).toThrow(
      'lock_saltenv is enabled, saltenv cannot be changed',
    );
    expect(stateCall(ctx, { saltenv: 'prod' }).saltenv).toBe('prod');
  });

  it("judges a run as Salt's check_result: empty or failed is a failure, unless onfail expected it", () => {
    const ok = { name: 'a', result: true, changes: {}, comment: '', __id__: 'a', __run_num__: 0 };
    expect(checkResult({})).toBe(false);
    expect(checkResult({ 'test_|-a_|-a_|-nop': ok })).toBe(true);
    const bad = { 'test_|-a_|-a_|-nop': { ...ok, result: false } };
    expect(checkResult(bad)).toBe(false);
    const onfail = { state: 'test', fun: 'nop', name: 'b', __id__: 'b', onfail: [{ test: 'a' }] };
    expect(checkResult(bad, [onfail])).toBe(true);
  });
});
