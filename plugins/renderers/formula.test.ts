// Renders a formula written in the style of saltstack-formulas (test/fixtures/renderers/formula:
// map.jinja with import_yaml + grains.filter_by + pillar.get merge, macros with caller and a
// libtofs-like files_switch) and compares text and data with what Salt 3006.18's own Jinja
// environment and YAML loader made of it (formula-expected.json; recorded by record-formula.py).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formulaContext } from '../../bench/render-formula.js';
import { renderJinja } from './jinja/renderer.js';
import { renderPipeline } from './pipeline.js';

const root = join(import.meta.dirname, '../../test/fixtures/renderers/formula');
const context = formulaContext(root);

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
