// Each template of test/fixtures/renderers/snippets.json rendered by tsalt's Jinja engine must
// give what Salt 3006.18's own Jinja environment gave (snippets-expected.json, recorded by
// record-snippets.py with the same grains, pillar and salt stand-ins as below).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { saltFunctionsFrom } from '../salt-functions.js';
import type { RenderContext } from '../types.js';
import { renderJinja } from './renderer.js';

const fixtures = join(import.meta.dirname, '../../../test/fixtures/renderers');
const expected = JSON.parse(readFileSync(join(fixtures, 'snippets-expected.json'), 'utf8')) as Array<{
  src: string;
  out?: string;
  error?: string;
}>;
const pillar = { app: { port: 8080 } };
const context: RenderContext = {
  grains: { os: 'Debian', os_family: 'Debian', id: 'web1' },
  pillar,
  opts: {},
  saltenv: 'base',
  salt: saltFunctionsFrom({
    'test.echo': async ([x]) => x,
    'test.kw': ([a], kw) => `${a}+${kw.b ?? 0}`,
  }),
};

describe('Jinja snippets against Salt 3006', () => {
  for (const [i, e] of expected.entries()) {
    it(`#${i}: ${e.src.slice(0, 60).replace(/\n/g, '\\n')}`, async () => {
      if (e.out !== undefined)
        expect(await renderJinja(e.src, context, { path: `snippet-${i}` })).toBe(e.out);
      else await expect(renderJinja(e.src, context, { path: `snippet-${i}` })).rejects.toThrow();
    });
  }
});
