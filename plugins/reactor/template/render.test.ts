import { describe, expect, it } from 'vitest';
import { renderTemplate, TemplateError } from './index.js';

const vars = {
  tag: 'salt/minion/web1/start',
  data: {
    id: 'web1',
    data: { n: 3, list: ['a', 'b'], nested: { k: 'v' } },
    cmd: '_minion_event',
    flag: true,
  },
};
const r = (src: string, v: Record<string, unknown> = vars) => renderTemplate(src, v);

function errorOf(src: string, v: Record<string, unknown> = vars): TemplateError {
  try {
    r(src, v);
  } catch (err) {
    if (err instanceof TemplateError) return err;
    throw err;
  }
  throw new Error(`no error for ${src}`);
}

describe('expressions', () => {
  it('reads variables by attribute and by item, and prints them as Python does', () => {
    expect(r("{{ data['id'] }} {{ data.id }} {{ tag }}")).toBe('web1 web1 salt/minion/web1/start');
    expect(r('{{ data.data.list }} {{ data.data.nested }}')).toBe("['a', 'b'] {'k': 'v'}");
    expect(r('{{ data.flag }} {{ none }} {{ 3 }} {{ 1.5 }}')).toBe('True None 3 1.5');
    expect(r("{{ data.data.list[0] }}{{ data.data.list[-1] }}{{ data['data']['nested'].k }}")).toBe('abv');
  });

  it('has literals, arithmetic, comparisons and boolean logic', () => {
    expect(r('{{ \'a\' ~ 1 ~ "b" }} {{ 1 + 2 * 3 }} {{ 7 // 2 }} {{ 7 % 3 }} {{ -2 }} {{ 2 ** 3 }}')).toBe(
      'a1b 7 3 1 -2 8',
    );
    expect(r("{{ 1 < 2 and 'x' == 'x' }} {{ not true or false }} {{ 1 != 1 }}")).toBe('True False False');
    expect(
      r("{{ 'web' in data.id }} {{ 'a' in data.data.list }} {{ 'id' in data }} {{ 'z' not in data }}"),
    ).toBe('True True True True');
    expect(r("{{ [1, 'x'] }} {{ {'a': [1]} }} {{ (1, 2) }}")).toBe("[1, 'x'] {'a': [1]} (1, 2)");
    expect(
      r("{{ 'yes' if data.flag else 'no' }} {{ data.missing is defined }} {{ data.id is string }}"),
    ).toBe('yes False True');
    expect(r("{{ data.data.n > 2 and data.data.n <= 3 }} {{ [1] + [2] }} {{ 'ab' * 2 }}")).toBe(
      'True [1, 2] abab',
    );
  });

  it('has the listed filters', () => {
    expect(
      r("{{ data.missing | default('dflt') }} {{ data.id | default('x') }} {{ '' | default('e', true) }}"),
    ).toBe('dflt web1 e');
    expect(r('{{ data.data.nested | json }} {{ {"b": 1, "a": [true, none]} | tojson }}')).toBe(
      '{"k": "v"} {"a": [true, null], "b": 1}',
    );
    expect(r('{{ data.data.nested | yaml }} {{ data.data.list | yaml }}')).toBe('{ k: v } [ a, b ]');
    expect(r("{{ 'AbC' | lower }} {{ 'abc' | upper }} {{ 'a-b-c' | replace('-', '+') }}")).toBe(
      'abc ABC a+b+c',
    );
    expect(r("{{ data.data.list | join(',') }} {{ data.data.list | length }} {{ '42' | int + 1 }}")).toBe(
      'a,b 2 43',
    );
    expect(r("{{ data.data.list | first }}{{ data.data.list | last }} {{ '  x ' | trim }}")).toBe('ab x');
  });

  it('has the safe methods of strings and mappings', () => {
    expect(
      r("{{ tag.split('/')[2] }} {{ tag.startswith('salt/minion') }} {{ tag.endswith(('x', 'start')) }}"),
    ).toBe('web1 True True');
    expect(r("{{ data.get('id') }} {{ data.get('nope', 'd') }} {{ data.get('nope') }}")).toBe('web1 d None');
    expect(
      r("{{ data.data.nested.items() }} {{ data.data.nested.keys() }} {{ ' X '.strip().lower() }}"),
    ).toBe("[['k', 'v']] ['k'] x");
    expect(r("{{ '-'.join(data.data.list) }} {{ 'a b  c'.split() }}")).toBe("a-b ['a', 'b', 'c']");
  });
});

describe('statements', () => {
  it('if / elif / else', () => {
    const t = '{% if data.data.n == 1 %}one{% elif data.data.n == 3 %}three{% else %}other{% endif %}';
    expect(r(t)).toBe('three');
    expect(r(t, { data: { data: { n: 1 } } })).toBe('one');
    expect(r(t, { data: { data: { n: 9 } } })).toBe('other');
    expect(r('{% if data.missing is defined %}x{% endif %}y')).toBe('y');
  });

  it('for loops over lists, mappings and items(), with loop.*, an if filter and else', () => {
    expect(
      r('{% for x in data.data.list %}{{ loop.index }}{{ x }}{% if not loop.last %},{% endif %}{% endfor %}'),
    ).toBe('1a,2b');
    expect(r('{% for k, v in data.data.nested.items() %}{{ k }}={{ v }}{% endfor %}')).toBe('k=v');
    expect(r('{% for k in data.data.nested %}{{ k }}{% endfor %}')).toBe('k');
    expect(r("{% for x in data.data.list if x != 'a' %}{{ x }}{% endfor %}")).toBe('b');
    expect(r('{% for x in [] %}{{ x }}{% else %}empty{% endfor %}')).toBe('empty');
  });

  it('set, with loop scoping as in Jinja', () => {
    expect(r('{% set who = data.id | upper %}{{ who }}')).toBe('WEB1');
    expect(r('{% set a, b = [1, 2] %}{{ a + b }}')).toBe('3');
    expect(r('{% set x = 1 %}{% for i in [5] %}{% set x = i %}{{ x }}{% endfor %}{{ x }}')).toBe('51');
  });

  it('comments and whitespace control', () => {
    expect(r('a{# a comment {{ x }} #}b')).toBe('ab');
    expect(r('a  \n  {%- if true -%}  \n b {%- endif %}')).toBe('ab');
    expect(r('x\n{{- data.id -}}\ny')).toBe('xweb1y');
  });

  it('renders a Salt reactor file as Salt would', () => {
    const sls = `{% if data['id'] == 'web1' %}
highstate_run:
  local.state.apply:
    - tgt: {{ data['id'] }}
    - args:
      - mods: {{ data.data.list | json }}
{% endif %}
`;
    expect(r(sls)).toBe(`
highstate_run:
  local.state.apply:
    - tgt: web1
    - args:
      - mods: ["a", "b"]

`);
  });
});

describe('errors name the line and never reach the host', () => {
  it('strict undefined: using a missing value is an error', () => {
    const e = errorOf('line1\n{{ data.nope }}');
    expect(e.message).toContain("has no attribute 'nope'");
    expect(e.line).toBe(2);
    expect(errorOf('{{ nope.x }}').message).toContain("'nope' is undefined");
    expect(errorOf('\n\n{% if data.nope == 1 %}{% endif %}').line).toBe(3);
  });

  it('salt, pillar, grains and opts are not in the sandbox', () => {
    expect(errorOf("{{ salt['cmd.run'] }}").message).toMatch(/only 'tag' and 'data'/);
    expect(errorOf("{{ salt['cmd.run']('id') }}").message).toMatch(/sandbox has no functions/);
    expect(errorOf('{{ grains.id }}').message).toMatch(/sandbox/);
  });

  it('no prototype, constructor or host method is reachable', () => {
    expect(errorOf('{{ data.constructor }}').message).toContain("no attribute 'constructor'");
    expect(errorOf("{{ data['__proto__'] }}").message).toContain("no key '__proto__'");
    expect(errorOf("{{ tag.constructor('x') }}").message).toContain("no method 'constructor'");
    expect(errorOf('{{ data.id.toString() }}').message).toContain("no method 'toString'");
    expect(errorOf("{{ data.hasOwnProperty('id') }}").message).toContain("no method 'hasOwnProperty'");
    expect(errorOf('{{ data.id | __proto__ }}').message).toContain("no filter named '__proto__'");
    expect(errorOf('{{ 1 is constructor }}').message).toContain("no test named 'constructor'");
    expect(errorOf('{{ range(3) }}').message).toMatch(/methods/);
    expect(errorOf('{{ [].__class__ }}').message).toContain('__class__');
  });

  it('unknown tags, filters and tests, and unclosed blocks', () => {
    expect(errorOf('a\n{% include "x.sls" %}').message).toMatch(/unknown tag 'include'/);
    expect(errorOf('a\n{% include "x.sls" %}').line).toBe(2);
    expect(errorOf('{% macro m() %}{% endmacro %}').message).toMatch(/unknown tag 'macro'/);
    expect(errorOf('{{ x | shell }}', { x: 1 }).message).toMatch(/no filter named 'shell'/);
    expect(errorOf('{{ x is callable }}', { x: 1 }).message).toMatch(/no test named 'callable'/);
    const unclosed = errorOf('x\n{% if true %}\nfoo\n');
    expect(unclosed.message).toMatch(/'if' block opened on line 2 is not closed/);
    expect(unclosed.line).toBe(2);
    expect(errorOf('{% endif %}').message).toMatch(/unexpected 'endif'/);
    expect(errorOf('a\nb {{ data.id ').line).toBe(2);
    expect(errorOf('{{ 1 + }}').message).toMatch(/unexpected end/);
    expect(errorOf('{{ a b }}', { a: 1, b: 2 }).message).toMatch(/unexpected name 'b'/);
    expect(errorOf('{{ x[1:] }}', { x: [] }).message).toMatch(/slices/);
  });

  it('type errors are Python-like', () => {
    expect(errorOf("{{ 1 + 'a' }}").message).toMatch(/unsupported operand/);
    expect(errorOf('{{ 1 / 0 }}').message).toMatch(/division by zero/);
    expect(errorOf("{{ 1 < 'a' }}").message).toMatch(/not supported between/);
    expect(errorOf('{% for x in 3 %}{% endfor %}').message).toMatch(/not iterable/);
  });
});
