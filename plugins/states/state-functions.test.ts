import { describe, expect, it } from 'vitest';
import { fakeCtx } from '../../modules/_fake-ctx.js';
import { builtinStateFunctions } from '../../test/support/builtin-states.js';

function states() {
  return builtinStateFunctions(fakeCtx({ opts: { pillar: { a: 1 } } }));
}

describe('state functions', () => {
  it('runs a built-in state function with test on and off, dropping keywords it does not take', async () => {
    const s = states();
    const args = { name: 'x', require: [{ test: 'y' }], onlyif: 'false' };
    await expect(s.call('test.fail_without_changes', args, { test: false })).resolves.toEqual({
      name: 'x',
      changes: {},
      result: false,
      comment: 'Failure!',
    });
    // `test.fail_without_changes` takes **kwargs: the requisite reached it and changed nothing
    const changed = await s.call('test.succeed_with_changes', { name: 'x' }, { test: true });
    expect(changed.result).toBeNull();
    expect(changed.changes).toEqual({ testing: { old: 'Unchanged', new: 'Something pretended to change' } });
  });

  it('says what it accepts and explains a missing function as Salt does', async () => {
    const s = states();
    await expect(s.accepts('test.nop')).resolves.toBe('any');
    await expect(s.has('test.nop')).resolves.toBe(true);
    await expect(s.has('test.nope')).resolves.toBe(false);
    await expect(s.explain('nosuch.fun')).resolves.toBe("'nosuch.fun' is not available.");
    await expect(s.call('nosuch.fun', { name: 'x' }, { test: false })).rejects.toThrow(/not available/);
  });
});
