// Which of Salt's template variables a template sees. A file template (file.managed,
// cp.get_template) has no `tpldir`, `tplfile` or `sls` of its own; a context that gives `tpldir`
// is what imports resolve from (mysql-formula's files/my.cnf gets `tpldir: mysql` from its state
// and imports `tpldir ~ "/map.jinja"`). An SLS file's own variables win over its context.
// Expected texts are Salt 3006.18's (file.managed test=True diffs, cp.get_template).
import { describe, expect, it } from 'vitest';
import { saltFunctionsFrom } from '../salt-functions.js';
import type { RenderContext } from '../types.js';
import { renderJinja } from './renderer.js';

const files: Record<string, string> = {
  'mysql/map.jinja': "{% set mysql = {'port': 3306} %}",
};
const base: RenderContext = {
  grains: {},
  pillar: {},
  opts: {},
  saltenv: 'base',
  salt: saltFunctionsFrom({}),
  loadFile: async (name) => (files[name] === undefined ? undefined : { source: files[name], path: name }),
};
const probe =
  "dir={{ tpldir|default('none') }} file={{ tplfile|default('none') }} sls={{ sls|default('nosls') }}";

describe('template variables', () => {
  it('a file template has no tpldir, tplfile or sls of its own', async () => {
    expect(await renderJinja(probe, base, { path: 'salt://t/a.txt' })).toBe('dir=none file=none sls=nosls');
  });

  it("a file template's context gives tpldir, and imports resolve from it", async () => {
    const ctx = { ...base, extra: { tpldir: 'mysql' } };
    const text = `${probe} {% from tpldir ~ "/map.jinja" import mysql with context %}{{ mysql.port }}`;
    expect(await renderJinja(text, ctx, { path: 'salt://mysql/files/my.cnf' })).toBe(
      'dir=mysql file=none sls=nosls 3306',
    );
  });

  it("an SLS file's own variables win over its context", async () => {
    const ctx = {
      ...base,
      sls: 'web.site',
      slspath: 'web',
      tplfile: 'web/site.sls',
      extra: { tpldir: 'other' },
    };
    expect(await renderJinja(probe, ctx, { path: 'web/site.sls' })).toBe(
      'dir=web file=web/site.sls sls=web.site',
    );
  });
});
