import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import defaults from './defaults.js';
import slsutil from './slsutil.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const call = async (mod: typeof defaults | typeof slsutil, fun: string, arg: unknown[]) =>
  (await invoke(mod, fun, arg, fakeCtx())).value;

describe('defaults and slsutil merges (returns of Salt 3006 for the same arguments)', () => {
  it('defaults.merge, deepcopy, update', async () => {
    const a = { a: { b: 1 }, l: [1] };
    expect(await call(defaults, 'merge', [a, { a: { c: 2 }, l: [2] }])).toEqual({
      a: { b: 1, c: 2 },
      l: [2],
    });
    expect(a).toEqual({ a: { b: 1, c: 2 }, l: [2] });
    expect(await call(defaults, 'merge', [{ l: [1] }, { l: [1, 2] }, kw({ merge_lists: true })])).toEqual({
      l: [1, 2],
    });
    const keep = { x: 1 };
    await call(defaults, 'merge', [keep, { y: 2 }, kw({ in_place: false })]);
    expect(keep).toEqual({ x: 1 });
    await expect(call(defaults, 'merge', [null, {}])).rejects.toThrow(
      "Can't perform in-place merge into NoneType",
    );
    expect(await call(defaults, 'deepcopy', [{ a: [1, { b: 2 }] }])).toEqual({ a: [1, { b: 2 }] });
    expect(
      await call(defaults, 'update', [
        { n1: { x: 1 }, n2: {} },
        { x: 0, y: [1] },
      ]),
    ).toEqual({
      n1: { x: 1, y: [1] },
      n2: { x: 0, y: [1] },
    });
  });

  it('slsutil.merge strategies, update and merge_all', async () => {
    expect(await call(slsutil, 'merge', [{ a: { b: 1 } }, { a: { c: 2 } }])).toEqual({ a: { b: 1, c: 2 } });
    expect(
      await call(slsutil, 'merge', [{ a: { b: 1 }, z: 1 }, { a: { c: 2 } }, kw({ strategy: 'overwrite' })]),
    ).toEqual({
      a: { c: 2 },
      z: 1,
    });
    expect(await call(slsutil, 'merge', [{ a: 1, b: 2 }, { a: 3 }, kw({ strategy: 'list' })])).toEqual({
      a: [1, 3],
      b: 2,
    });
    expect(
      await call(slsutil, 'update', [
        { a: { b: 1 }, l: [1] },
        { a: { c: 2 }, l: [1, 2] },
        kw({ merge_lists: true }),
      ]),
    ).toEqual({ a: { b: 1, c: 2 }, l: [1, 2] });
    expect(await call(slsutil, 'merge_all', [[{ a: 1 }, { a: 2, b: 3 }]])).toEqual({ a: 2, b: 3 });
    await expect(call(slsutil, 'update', [1, {}])).rejects.toThrow('Cannot update using non-dict types');
  });

  it('slsutil.renderer renders a string through a pipeline', async () => {
    expect(
      await call(slsutil, 'renderer', [
        kw({ string: '{"x": "{{ 2 * 3 }}"}', default_renderer: 'jinja|json' }),
      ]),
    ).toEqual({ x: '6' });
    expect(await call(slsutil, 'renderer', [kw({ string: 'a: {{ grains.get("os", "none") }}' })])).toEqual({
      a: 'none',
    });
    await expect(call(slsutil, 'renderer', [])).rejects.toThrow('Must pass either path or string');
  });
});
