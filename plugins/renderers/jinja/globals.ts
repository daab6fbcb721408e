/**
 * The template globals Salt's Jinja environment has besides the render context: Jinja2's
 * `range`, `dict`, `namespace`, `lipsum`-free basics, and Salt's `raise`, `odict` and
 * `show_full_context` (`salt/utils/jinja.py` `@jinja_global`).
 */
import { isMap, iterate, JinjaFunction, str, TemplateError } from './values.js';

function range(args: unknown[]): number[] {
  const [a, b, c] = args.map(Number);
  const [start, stop, step] = args.length === 1 ? [0, a as number, 1] : [a as number, b as number, c ?? 1];
  if (step === 0) throw new TemplateError('range() arg 3 must not be zero');
  const out: number[] = [];
  if ((stop - start) / step > 10_000_000)
    throw Object.assign(new TemplateError('range() too large: more than 10,000,000 items'), {
      kind: 'limit',
    });
  for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(i);
  return out;
}

function dict(args: unknown[], kwargs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const src = args[0];
  if (isMap(src)) Object.assign(out, src);
  else if (src !== undefined)
    for (const pair of iterate(src)) {
      const p = iterate(pair);
      out[str(p[0])] = p[1];
    }
  return Object.assign(out, kwargs);
}

/** The globals, with `context` for `show_full_context`. */
export function saltGlobals(context: () => Record<string, unknown>): Record<string, unknown> {
  return {
    range: new JinjaFunction('range', (a) => range(a)),
    dict: new JinjaFunction('dict', dict),
    odict: new JinjaFunction('odict', dict),
    namespace: new JinjaFunction('namespace', dict),
    raise: new JinjaFunction('raise', (a) => {
      throw new TemplateError(str(a[0]));
    }),
    show_full_context: new JinjaFunction('show_full_context', () => context()),
  };
}
