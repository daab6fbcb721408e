/**
 * The template globals Salt's Jinja environment has besides the render context: Jinja2's
 * `range`, `dict`, `namespace`, `lipsum`-free basics, and Salt's `raise`, `odict` and
 * `show_full_context` (`salt/utils/jinja.py` `@jinja_global`).
 */
import { markOrdered } from '../../../modules/_ordered.js';
import { SaltProxy } from './salt-proxy.js';
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

/** Jinja's `cycler(*items)`: `next()`, `reset()` and `current`. */
function cycler(items: unknown[]): Record<string, unknown> {
  let pos = 0;
  const c: Record<string, unknown> = { current: items[0] };
  c.next = new JinjaFunction('cycler.next', () => {
    const v = items[pos];
    pos = (pos + 1) % items.length;
    c.current = items[pos];
    return v;
  });
  c.reset = new JinjaFunction('cycler.reset', () => {
    pos = 0;
    c.current = items[0];
    return null;
  });
  return c;
}

/** Jinja's `joiner(sep)`: '' the first time it is called, `sep` after. */
function joiner(sep: unknown): JinjaFunction {
  let used = false;
  return new JinjaFunction('joiner', () => {
    if (used) return str(sep ?? ', ');
    used = true;
    return '';
  });
}

const LOREM =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua';

/** The globals, with `context` for `show_full_context`. */
export function saltGlobals(context: () => Record<string, unknown>): Record<string, unknown> {
  return {
    range: new JinjaFunction('range', (a) => range(a)),
    dict: new JinjaFunction('dict', dict),
    odict: new JinjaFunction('odict', (a, kw) => markOrdered(dict(a, kw))),
    namespace: new JinjaFunction('namespace', dict),
    raise: new JinjaFunction('raise', (a) => {
      throw new TemplateError(str(a[0]));
    }),
    cycler: new JinjaFunction('cycler', (a) => {
      if (a.length === 0) throw new TemplateError('at least one item has to be provided');
      return cycler(a);
    }),
    joiner: new JinjaFunction('joiner', (a) => joiner(a[0])),
    lipsum: new JinjaFunction('lipsum', (a, kw) => {
      const n = Number(a[0] ?? kw.n ?? 5);
      const para = `${LOREM.charAt(0).toUpperCase()}${LOREM.slice(1)}.`;
      return Array.from({ length: n }, () => para).join('\n\n');
    }),
    // Salt's ifelse global is match.ifelse (salt/modules/match.py), matched against this minion
    ifelse: new JinjaFunction('ifelse', (a, kw) => {
      const salt = context().salt;
      const fn = salt instanceof SaltProxy ? salt.get('match.ifelse') : undefined;
      if (!(fn instanceof JinjaFunction)) throw new TemplateError("ifelse needs salt['match.ifelse']");
      return fn.impl(a, kw);
    }),
    show_full_context: new JinjaFunction('show_full_context', () => context()),
  };
}
