// A missing value is an error where it is used, not where it is merely held: in a dict or list
// literal, or as the default of `d.get(k, default)` (apache-formula's proxy.tmpl writes
// `prox.get('AllowAll', vals.AllowAll)` with no AllowAll in `vals`). Expected texts are what
// Salt 3006.18 renders (`salt-call --local slsutil.renderer string=... default_renderer=jinja`).
import { describe, expect, it } from 'vitest';
import { saltFunctionsFrom } from '../salt-functions.js';
import { renderJinja } from './renderer.js';

const context = { grains: {}, pillar: {}, opts: {}, saltenv: 'base', salt: saltFunctionsFrom({}) };
const render = (text: string) => renderJinja(`{% set v = {} %}${text}`, context, { path: 'x.sls' });

describe('a StrictUndefined that is held', () => {
  it.each([
    ["{% set d = {'a': 1} %}{{ d.get('a', v.missing) }}", '1'],
    ["{% set x = {'k': v.missing} %}{{ x | length }}", '1'],
    ['{% set l = [v.missing, 2] %}{{ l[1] }}', '2'],
    ['{% set l = [] %}{% do l.append(v.missing) %}{{ l | length }}', '1'],
    ["{% set x = {} %}{% do x.setdefault('k', v.missing) %}{{ x.pop('j', v.nope) is defined }}", 'False'],
    ["{{ [v.missing] }} {{ [{'a': v.missing}] }}", "[Undefined] [{'a': Undefined}]"],
  ])('%s renders as Salt', async (text, expected) => {
    expect(await render(text)).toBe(expected);
  });

  it.each([
    "{% set x = {'k': v.missing} %}{{ x.k }}",
    "{% set x = {'k': v.missing} %}{{ x.get('k') != False }}",
    "{{ {'a': v.missing} }}",
    "{{ 'ab'.startswith(v.missing) }}",
  ])('%s fails where the value is used', async (text) => {
    await expect(render(text)).rejects.toThrow("'dict object' has no attribute");
  });
});
