import { describe, expect, it } from 'vitest';
import { type FunctionSpec, resolveFunctionArgs } from '../kernel/index.js';
import eventMod from '../modules/event.js';
import testMod from '../modules/test.js';
import { asPyTuple } from '../outputters/py-tuples.js';
import { moduleCtx, runState } from './_test-ctx.js';
import event from './event.js';
import mod from './module.js';

// Expectations: Salt 3006.18's `state.apply` of the same module.run / event.send states
// (salt-call --local).
const ctx = moduleCtx([testMod, eventMod], {
  functions: {
    list: async () => [],
    modules: async () => [],
    get: async (fun) => {
      const [m, f] = fun.split('.') as [string, string];
      const found = m === 'test' ? (testMod.functions as Record<string, FunctionSpec>)[f] : undefined;
      return found ? resolveFunctionArgs(found) : undefined;
    },
    moduleDoc: async () => undefined,
    explain: async (fun) => `'${fun}' is not available.`,
    provider: async () => undefined,
  },
});
const run = (kw: Record<string, unknown>, test = false) => runState(mod, 'run', kw, { ctx, test });

describe('module.run, 3006 syntax', () => {
  it('runs functions with positional and keyword arguments', async () => {
    expect(await run({ name: 'a', 'test.echo': ['hello'] })).toEqual({
      name: ['test.echo'],
      changes: { 'test.echo': 'hello' },
      comment: 'test.echo: hello',
      result: true,
    });
    expect(await run({ name: 'b', 'test.arg': [1, { k: 'v' }], 'test.true': null })).toEqual({
      name: ['test.arg', 'test.true'],
      changes: { 'test.arg': { args: asPyTuple([1]), kwargs: { k: 'v' } }, 'test.true': true },
      comment: 'test.arg: Success, test.true: True',
      result: true,
    });
  });

  it('fails on a missing function or a False return', async () => {
    expect(await run({ name: 'c', 'nosuch.fun': ['x'] })).toEqual({
      name: ['nosuch.fun'],
      changes: {},
      comment: 'Unavailable function: nosuch.fun.',
      result: false,
    });
    expect(await run({ name: 'd', 'test.false': null })).toEqual({
      name: ['test.false'],
      changes: {},
      comment: "'test.false': False",
      result: false,
    });
  });

  it('predicts under test=True (with Salt’s plural)', async () => {
    expect(await run({ name: 'a', 'test.echo': ['hello'] }, true)).toEqual({
      name: ['test.echo'],
      changes: {},
      comment: 'Function test.echo to be executed.',
      result: null,
    });
    expect((await run({ name: 'b', 'test.arg': [1], 'test.true': null }, true)).comment).toBe(
      'FunctionTrue test.arg, test.true to be executed.',
    );
  });

  it('keeps the legacy syntax', async () => {
    expect(await run({ name: 'test.echo', text: 'legacy' })).toEqual({
      name: 'test.echo',
      changes: { ret: 'legacy' },
      comment: 'Module function test.echo executed',
      result: true,
    });
    expect(await run({ name: 'test.echo', text: 'legacy' }, true)).toEqual({
      name: 'test.echo',
      changes: {},
      comment: 'Module function test.echo is set to execute',
      result: null,
    });
  });
});

describe('event.send', () => {
  it('fires (masterless: the execution function says False) and predicts', async () => {
    expect(await runState(event, 'send', { name: 'my/tag', data: { a: 1 } }, { ctx })).toEqual({
      name: 'my/tag',
      changes: { tag: 'my/tag', data: { a: 1 } },
      result: false,
      comment: 'Event fired',
    });
    expect(await runState(event, 'send', { name: 'my/tag' }, { ctx, test: true })).toEqual({
      name: 'my/tag',
      changes: { tag: 'my/tag', data: null },
      result: null,
      comment: 'Event would have been fired',
    });
    expect(
      (await runState(event, 'send', { name: 'my/tag', show_changed: false }, { ctx, test: true })).changes,
    ).toEqual({});
  });
});

describe('module.watch', () => {
  it('is Salt alias of module.wait: nothing done until a watch fires mod_watch', async () => {
    const ctx = moduleCtx([testMod]);
    expect(await runState(mod, 'watch', { name: 'test.echo', text: 'x' }, { ctx })).toEqual({
      name: 'test.echo',
      changes: {},
      result: true,
      comment: '',
    });
    expect(mod.functions.watch).toBe(mod.functions.wait);
  });
});
