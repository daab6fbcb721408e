// Renders a formula written in the style of saltstack-formulas (test/fixtures/renderers/formula:
// map.jinja with import_yaml + grains.filter_by + pillar.get merge, macros with caller and a
// libtofs-like files_switch) and compares text and data with what Salt 3006.18's own Jinja
// environment and YAML loader made of it (formula-expected.json; recorded by record-formula.py).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderJinja } from './jinja/renderer.js';
import { renderPipeline } from './pipeline.js';
import { type SaltFunctionImpl, saltFunctionsFrom } from './salt-functions.js';
import type { RenderContext } from './types.js';

const root = join(import.meta.dirname, '../../test/fixtures/renderers/formula');
const grains = { id: 'web1', fqdn: 'web1.example.com', os_family: 'Debian', osmajorrelease: 12, num_cpus: 4 };
const pillar = { web: { workers: 8, modules: ['ssl'] }, other: 'x' };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** salt.utils.dictupdate.merge (recursive, lists replaced). */
function merge(a: Obj, b: Obj): Obj {
  const out: Obj = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isObj(v) && isObj(out[k]) ? merge(out[k] as Obj, v) : v;
  return out;
}
function traverse(data: unknown, key: string, def: unknown): unknown {
  let v = data;
  for (const p of key.split(':')) {
    if (!isObj(v) || !Object.hasOwn(v, p)) return def;
    v = v[p];
  }
  return v;
}
// the same stand-ins record-formula.py gives Salt; async, as tsalt's modules are
const fns: Record<string, SaltFunctionImpl> = {
  'grains.filter_by': async ([lookup], kw) => {
    const l = lookup as Obj;
    const grain = String(kw.grain ?? 'os_family');
    let ret = (l[String((grains as Obj)[grain])] ?? l[String(kw.default ?? 'default')]) as Obj;
    if (kw.merge) ret = merge({ ...ret }, kw.merge as Obj);
    return ret;
  },
  'pillar.get': async ([key, def], kw) => {
    const d = def ?? kw.default ?? '';
    const v = traverse(pillar, String(key), d);
    return kw.merge && isObj(d) ? merge({ ...d }, isObj(v) ? v : {}) : v;
  },
  'config.get': ([key]) => (grains as Obj)[String(key)] ?? '',
};

const context: RenderContext = {
  grains,
  pillar,
  opts: {},
  salt: saltFunctionsFrom(fns),
  saltenv: 'base',
  sls: 'web',
  slspath: 'web',
  tpldir: 'web',
  tplfile: 'web/init.sls',
  loadFile: async (name) => {
    const path = name.replace(/^salt:\/\//, '');
    const source = await readFile(join(root, path), 'utf8').catch(() => undefined);
    return source === undefined ? undefined : { source, path };
  },
};

describe('a saltstack-formulas style formula', () => {
  it('renders to the text and data Salt 3006 renders', async () => {
    const expected = JSON.parse(await readFile(join(root, '../formula-expected.json'), 'utf8'));
    const source = await readFile(join(root, 'web/init.sls'), 'utf8');
    expect(await renderJinja(source, context, { path: 'web/init.sls' })).toBe(expected.text);
    expect(await renderPipeline(source, { path: 'web/init.sls', context })).toEqual(expected.data);
  });

  it('renders in a few milliseconds (bench: tsalt vs Salt on the same file)', async () => {
    const source = await readFile(join(root, 'web/init.sls'), 'utf8');
    const n = 200;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await renderJinja(source, context, { path: 'web/init.sls' });
    const ms = (performance.now() - t0) / n;
    console.log(`tsalt jinja render of web/init.sls: ${ms.toFixed(3)} ms per render (${n} renders)`);
    expect(ms).toBeLessThan(50);
  });
});
