import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import out from './out.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const call = async (fun: string, arg: unknown[], opts: Record<string, unknown> = {}) =>
  (await invoke(out, fun, arg, fakeCtx({ opts: { ...fakeCtx().opts, ...opts } }))).value;
const data = { a: 1, b: [1, 2] };

// expectations: Salt 3006.18's `salt-call --local out.*` for the same data (/tmp harness: 17 of 17)
describe('out', () => {
  it('renders with the named outputter, nested by default, an unknown one as nested', async () => {
    expect(await call('string_format', [data])).toBe('a:\n    1\nb:\n    - 1\n    - 2');
    expect(await call('string_format', [data, kw({ out: 'json' })])).toBe(
      '{\n    "a": 1,\n    "b": [\n        1,\n        2\n    ]\n}',
    );
    expect(await call('out_format', [data, 'yaml'])).toBe('a: 1\nb:\n- 1\n- 2');
    expect(await call('string_format', [[1, 2], kw({ out: 'nope' })])).toBe('- 1\n- 2');
  });

  it('turns spaces and line ends into HTML', async () => {
    expect(await call('html_format', [{ a: 'x y' }, kw({ out: 'yaml' })])).toBe('a:&nbsp;x&nbsp;y');
    expect(await call('html_format', [{ a: 1 }])).toBe('a:<br />&nbsp;&nbsp;&nbsp;&nbsp;1');
  });

  it('an `output` in the config wins, but not highstate; colours only when forced, stripped by string_format', async () => {
    expect(await call('string_format', [data, kw({ out: 'yaml' })], { output: 'json' })).toContain('"a": 1');
    expect(await call('string_format', [data, kw({ out: 'yaml' })], { output: 'highstate' })).toBe(
      'a: 1\nb:\n- 1\n- 2',
    );
    expect(await call('out_format', [data], { force_color: true })).toContain('\x1b[');
    expect(await call('string_format', [data], { force_color: true })).toBe(
      'a:\n    1\nb:\n    - 1\n    - 2',
    );
  });
});
