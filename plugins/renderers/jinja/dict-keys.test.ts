// Python values as dict keys and dict.popitem(), as Salt 3006.18 renders them (`salt-call --local
// slsutil.renderer string=... default_renderer=jinja`): bind-formula loops over
// `{False: pillar}|dictsort` and names its view-less zones with `'-' + view if view else ''`;
// postfix-formula's mapping.j2 takes each `key, value` of a list of one-item dicts with popitem().
// prometheus-formula calls `component["service"]["get"](name, {})`: a subscript naming a method.
import { describe, expect, it } from 'vitest';
import { saltFunctionsFrom } from '../salt-functions.js';
import { renderJinja } from './renderer.js';

const context = { grains: {}, pillar: {}, opts: {}, saltenv: 'base', salt: saltFunctionsFrom({}) };
const render = (text: string) => renderJinja(text, context, { path: 'x.sls' });

describe('dict keys that are not strings', () => {
  it.each([
    [
      "{% set views = {False: {'z': 1}} %}{% do views.update({'inner': {'y': 2}}) %}{% for view, data in views.items() %}[{{ '-' ~ view if view else '' }}:{{ view }}]{% endfor %}",
      '[:False][-inner:inner]',
    ],
    ['{% set views = {False: 1} %}{% for k in views %}{{ k is sameas false }}{% endfor %}', 'True'],
    ["{% for k, v in {False: 1}|dictsort %}{{ 'x' if k else 'y' }}{{ k }}{% endfor %}", 'yFalse'],
    ["{% for k in {1: 'a'}.keys() %}{{ k + 1 }}{% endfor %}", '2'],
  ])('%s renders as Salt', async (text, expected) => {
    expect(await render(text)).toBe(expected);
  });
});

describe('dict.popitem()', () => {
  it('takes the last item out and gives it as a pair', async () => {
    expect(
      await render("{% set d = {'a': 1, 'b': 2} %}{% set k, v = d.popitem() %}{{ k }}={{ v }} {{ d }}"),
    ).toBe("b=2 {'a': 1}");
    expect(
      await render(
        '{% for item in [{"x": 1}, {"y": 2}] %}{% set k, v = item.popitem() %}{{ k }}{{ v }}{% endfor %}',
      ),
    ).toBe('x1y2');
  });
  it('fails on an empty dict', async () => {
    await expect(render('{{ {}.popitem() }}')).rejects.toThrow("'popitem(): dictionary is empty'");
  });
});

describe("a subscript that names a method (Jinja's getitem falls back to the attribute)", () => {
  it.each([
    ["{{ {'a': 1}['get']('a') }}|{{ {'a': {'n': 2}}['get']('b', {}).get('n', 7) }}", '1|7'],
    ["{{ 'abc'['upper']() }}|{{ [3, 1]['index'](1) }}", 'ABC|1'],
    ["{{ {'get': 5}['get'] }}", '5'],
  ])('%s renders as Salt', async (text, expected) => {
    expect(await render(text)).toBe(expected);
  });
});
