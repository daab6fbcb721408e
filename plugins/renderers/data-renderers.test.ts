import { describe, expect, it } from 'vitest';
import { packIpc } from '../../kernel/util.js';
import { msgpackRenderer } from './msgpack-renderer.js';
import { renderPipeline } from './pipeline.js';
import { NO_SALT_FUNCTIONS } from './salt-functions.js';
import type { RenderContext } from './types.js';

const context: RenderContext = { grains: {}, pillar: {}, opts: {}, salt: NO_SALT_FUNCTIONS, saltenv: 'base' };
const render = (source: string) => renderPipeline(source, { path: 'r.sls', context });

describe('toml, json5, hjson, yamlex and msgpack renderers', () => {
  it('toml: tables, arrays of tables, dates as ISO text, empty is {}, errors name line and column', async () => {
    expect(
      await render('#!toml\n[a]\n"test.nop" = [{name = "x"}]\n[[f]]\nn = 1\n[[f]]\nn = 2\nd = 1979-05-27\n'),
    ).toEqual({
      a: { 'test.nop': [{ name: 'x' }] },
      f: [{ n: 1 }, { n: 2, d: '1979-05-27' }],
    });
    expect(await render('#!toml\n')).toEqual({});
    await expect(render('#!toml\na = 1\nb = ]\n')).rejects.toThrow(/r\.sls, line 3, column 5: invalid TOML/);
  });

  it('json5 and hjson: their syntax, after jinja, errors with line and column', async () => {
    expect(await render("#!jinja|json5\n// c\n{a: '{{ 1 + 2 }}', b: [1, 2,], h: 0x1F, f: .5,}\n")).toEqual({
      a: '3',
      b: [1, 2],
      h: 31,
      f: 0.5,
    });
    expect(await render('#!json5\n  \n')).toEqual({});
    await expect(render('#!json5\n{a: 1,\n b: ]}\n')).rejects.toThrow(/line 3, column 5: invalid JSON5/);
    expect(await render('#!hjson\n{\n  # c\n  name: hello world\n  l: [1, 2]\n}\n')).toEqual({
      name: 'hello world',
      l: [1, 2],
    });
    await expect(render('#!hjson\n{a: 1\n b: ]}\n')).rejects.toThrow(/line 3, column 5: invalid Hjson/);
  });

  it('yamlex: repeated keys merge as Salt aggregates them, !aggregate joins, !reset replaces', async () => {
    const source = [
      '#!yamlex',
      'm: {k1: v1, k2: {p: 1, q: 2}}',
      'm: {k2: {q: 3}, k3: v3}',
      'l: !aggregate one',
      'l: !aggregate two',
      's: !aggregate [1, 2]',
      's: !aggregate [2, 3]',
      'am: !aggregate {a: 1, b: 2}',
      'am: !aggregate {c: 3, a: 0}',
      'pl: [1]',
      'pl: [2]',
      'r: {x: 1}',
      '!reset r: {y: 2}',
      'c: 0644',
      '',
    ].join('\n');
    expect(await render(source)).toEqual({
      m: { k2: { q: 3 }, k3: 'v3' },
      l: ['one', 'two'],
      s: [1, 2, 3],
      am: { a: 0, b: 2, c: 3 },
      pl: [],
      r: { y: 2 },
      c: 644,
    });
    await expect(render('#!yaml\na: 1\na: 2\n')).rejects.toThrow("found conflicting ID 'a'");
  });

  it('msgpack: text fails naming the file, bytes decode', async () => {
    await expect(render('#!msgpack\n\u0081\u00a1a\u0001\n')).rejects.toThrow(
      /r\.sls: msgpack data cannot come from an SLS file/,
    );
    expect(await render('#!msgpack\n')).toEqual({});
    const step = { path: 'b', argline: '', limits: {} as never, chain: [], checkDeadline() {} };
    expect(await msgpackRenderer.render(packIpc({ a: [1] }), context, step)).toEqual({ a: [1] });
  });
});
