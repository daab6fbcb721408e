// Key order of mappings dumped through `| yaml`: Salt's YAML renderer builds OrderedDicts (a
// masterless pillar's and an SLS file's mappings), which PyYAML writes in their own order; a
// Jinja literal or an `import_yaml` mapping is a dict, whose keys it sorts. A deep copy (as
// grains.filter_by makes of its merge) and `odict()` stay ordered. The expected texts are what
// Salt 3006.18 renders for the same pillar and template (salt-call --local slsutil.renderer);
// the template-formula `_mapdata` states of nfs, keepalived, apache, mysql and docker show the same.
import { describe, expect, it } from 'vitest';
import { deepCopy, filterBy } from '../../../modules/_traverse.js';
import { renderJinja } from '../jinja/renderer.js';
import { DEFAULT_RENDER_LIMITS } from '../limits.js';
import { saltFunctionsFrom } from '../salt-functions.js';
import type { RenderContext } from '../types.js';
import { yamlRenderer } from './renderer.js';

const STEP = {
  path: 'm.sls',
  argline: '',
  limits: DEFAULT_RENDER_LIMITS,
  chain: [],
  checkDeadline: () => {},
};
const PILLAR = 'm:\n  zeta: 1\n  alpha:\n    y: 1\n    b: 2\n  mid: [3, 1]\n';
const DEFAULTS = 'm:\n  zeta: 0\n  beta: {q: 1, a: 2}\n';

async function render(text: string): Promise<string> {
  const pillar = (await yamlRenderer.render(PILLAR, {} as RenderContext, STEP)) as Record<string, unknown>;
  const context: RenderContext = {
    grains: {},
    pillar,
    opts: {},
    saltenv: 'base',
    salt: saltFunctionsFrom({
      'grains.filter_by': (_a, kw) =>
        filterBy(kw.lookup_dict as Record<string, unknown>, '', {}, kw.merge, 'x', null),
    }),
    loadFile: async (name) => (name === 'defaults.yaml' ? { source: DEFAULTS, path: name } : undefined),
  };
  return renderJinja(text, context, { path: 't.sls' });
}

describe('key order of dumped mappings', () => {
  it.each([
    ['{{ pillar.m | yaml }}', '{zeta: 1, alpha: {y: 1, b: 2}, mid: [3, 1]}'],
    ["{{ {'b': 1, 'a': 2} | yaml }}", '{a: 2, b: 1}'],
    [
      "{% import_yaml 'defaults.yaml' as d %}{{ salt['grains.filter_by'](lookup_dict={'x': d.m}, merge=pillar.m) | yaml }}",
      '{alpha: {y: 1, b: 2}, beta: {a: 2, q: 1}, mid: [3, 1], zeta: 1}',
    ],
    [
      "{% set o = odict([('b', 1), ('a', 2)]) %}{{ o | yaml }} {{ o.copy() | yaml }}",
      '{b: 1, a: 2} {b: 1, a: 2}',
    ],
  ])('%s dumps as Salt', async (text, expected) => {
    expect(await render(text)).toBe(expected);
  });

  it('a deep copy of an ordered mapping is ordered, of a dict is not', async () => {
    const data = (await yamlRenderer.render('b: 1\na: 2\n', {} as RenderContext, STEP)) as Record<
      string,
      unknown
    >;
    const copy = deepCopy(data);
    expect(copy).not.toBe(data);
    const ctx = {
      ...({} as RenderContext),
      grains: {},
      opts: {},
      saltenv: 'base',
      salt: saltFunctionsFrom({}),
    };
    const dump = (v: unknown) =>
      renderJinja('{{ v | yaml }}', { ...ctx, pillar: {}, extra: { v } }, { path: 'x' });
    expect(await dump(copy)).toBe('{b: 1, a: 2}');
    expect(await dump(deepCopy({ b: 1, a: 2 }))).toBe('{a: 2, b: 1}');
  });
});
