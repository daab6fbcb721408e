import { describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import pillar from './pillar.js';

const kw = (o: Record<string, unknown>) => ({ ...o, __kwarg__: true });

describe('pillar (tsalt serves no pillar: answers as Salt with an empty pillar)', () => {
  it('items, raw, ls, obfuscate of an empty pillar', async () => {
    expect((await invoke(pillar, 'items')).value).toEqual({});
    expect((await invoke(pillar, 'items', ['a', 'b:c'])).value).toEqual({ a: '', 'b:c': '' });
    expect((await invoke(pillar, 'items', [kw({ pillar: { x: 1 } })])).value).toEqual({ x: 1 });
    expect((await invoke(pillar, 'raw')).value).toEqual({});
    expect((await invoke(pillar, 'raw', ['k'])).value).toEqual({});
  });
  it('ls and obfuscate answer from pillar.items with their arguments, as Salt', async () => {
    const ctx = moduleCtx([pillar]);
    expect(await ctx.call('pillar.ls', [])).toEqual([]);
    expect(await ctx.call('pillar.ls', ['a', 'b'])).toEqual(['a', 'b']);
    expect(await ctx.call('pillar.obfuscate', [])).toEqual({});
    expect(await ctx.call('pillar.obfuscate', [], { pillar: { pw: 's3cret', n: [1] } })).toEqual({
      pw: '<str>',
      n: ['<int>'],
    });
    await expect(ctx.call('pillar.ls', [], { saltenv: 'base' })).rejects.toThrow(
      'The following keyword arguments are not valid: saltenv=base',
    );
  });
  it("get: the default, '' without one; merge returns the default", async () => {
    expect((await invoke(pillar, 'get', ['pkg:apache'])).value).toBe('');
    expect((await invoke(pillar, 'get', ['pkg:apache', 'httpd'])).value).toBe('httpd');
    expect((await invoke(pillar, 'get', ['a|b', kw({ default: 3, delimiter: '|' })])).value).toBe(3);
    expect((await invoke(pillar, 'get', ['x', kw({ default: { a: [1] }, merge: true })])).value).toEqual({
      a: [1],
    });
    expect((await invoke(pillar, 'get', ['x', kw({ default: [1], merge: true })])).value).toEqual([1]);
  });
  it('get with pillar_raise_on_missing and no default fails', async () => {
    const ctx = fakeCtx({ opts: { pillar_raise_on_missing: true } });
    await expect(invoke(pillar, 'get', ['nope'], ctx)).rejects.toThrow('Pillar key not found: nope');
    expect((await invoke(pillar, 'get', ['nope', 'd'], ctx)).value).toBe('d');
  });
  it('item: each key to its default', async () => {
    expect((await invoke(pillar, 'item', ['a', 'b'])).value).toEqual({ a: '', b: '' });
    expect((await invoke(pillar, 'item', ['a', kw({ default: 0 })])).value).toEqual({ a: 0 });
    expect((await invoke(pillar, 'item')).value).toEqual({});
  });
});
