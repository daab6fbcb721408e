import { describe, expect, it } from 'vitest';
import { fakeCtx } from '../modules/_fake-ctx.js';
import { builtinStateFunctions } from '../test/support/builtin-states.js';

function states() {
  return builtinStateFunctions(fakeCtx());
}

const PRETEND = { testing: { old: 'Unchanged', new: 'Something pretended to change' } };

describe('the test state module', () => {
  it('configurable_test_state takes Random for changes and result, and refuses anything else', async () => {
    const s = states();
    const seen = new Set<string>();
    for (let i = 0; i < 40; i += 1) {
      const r = await s.call(
        'test.configurable_test_state',
        { name: 'x', changes: 'Random', result: 'RANDOM' },
        { test: false },
      );
      expect([true, false]).toContain(r.result);
      seen.add(`${r.result}/${Object.keys(r.changes).length}`);
    }
    expect(seen.size).toBeGreaterThan(1);
    await expect(
      s.call('test.configurable_test_state', { name: 'x', changes: 'yes' }, { test: false }),
    ).rejects.toThrow(
      "You have specified the state option 'changes' with invalid arguments. It must be either True, False, or 'Random'",
    );
    const t = await s.call('test.configurable_test_state', { name: 'x', result: false }, { test: true });
    expect(t).toEqual({ name: 'x', changes: PRETEND, result: null, comment: 'This is a test' });
  });

  it('mod_watch lists the watched states that changed, from the low chunk and the run so far', async () => {
    const s = states();
    const watched = { state: 'test', __id__: 'a', name: 'a', fun: 'succeed_with_changes' };
    const quiet = { state: 'test', __id__: 'b', name: 'b', fun: 'nop' };
    const running = {
      'test_|-a_|-a_|-succeed_with_changes': { name: 'a', result: true, changes: PRETEND, comment: '' },
      'test_|-b_|-b_|-nop': { name: 'b', result: true, changes: {}, comment: '' },
    };
    const low = { state: 'test', fun: 'mod_watch', name: 'w', __reqs__: { watch: [watched, quiet] } };
    await expect(
      s.call('test.mod_watch', { name: 'w', sfun: 'nop' }, { test: false, low, running }),
    ).resolves.toEqual({
      name: 'w',
      result: true,
      comment: 'Watch statement fired.',
      changes: { 'Requisites with changes': ['test: a'] },
    });
  });

  it('check_pillar reads nested keys, says what passed when verbose, and needs something to check', async () => {
    const s = states();
    const pillar = { a: { b: [1, { c: 'x' }] }, n: 2 };
    const r = await s.call(
      'test.check_pillar',
      { name: 'p', string: 'a:b:1:c', integer: ['n'], listing: 'a:b', verbose: true },
      { test: false, pillar },
    );
    expect(r).toEqual({
      name: 'p',
      changes: {},
      result: true,
      comment:
        "Those keys passed the check:\n- n (<class 'int'>)\n- a:b:1:c ((<class 'str'>,))\n- a:b (<class 'list'>)\n",
    });
    await expect(s.call('test.check_pillar', { name: 'p' }, { test: false })).rejects.toThrow(
      'Missing required argument text.',
    );
  });
});
