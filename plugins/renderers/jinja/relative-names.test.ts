// `./x` and `../x` in imports resolve as Salt's SaltCacheLoader does: against the rendered
// template's folder on the file server (`tpldir`), whatever local path the file was cached at,
// and the same folder for everything that template imports.
import { describe, expect, it } from 'vitest';
import { saltFunctionsFrom } from '../salt-functions.js';
import type { RenderContext } from '../types.js';
import { renderJinja } from './renderer.js';

function contextWith(files: Record<string, string>, tplfile: string): RenderContext {
  return {
    grains: {},
    pillar: {},
    opts: {},
    saltenv: 'base',
    salt: saltFunctionsFrom({}),
    tplfile,
    loadFile: async (name) =>
      Object.hasOwn(files, name) ? { source: files[name] as string, path: `/cache/${name}` } : undefined,
  };
}

const render = (source: string, files: Record<string, string>, tplfile = 'pkgs/init.sls') =>
  renderJinja(source, contextWith(files, tplfile), { path: `/var/cache/salt/files/base/${tplfile}` });

describe('relative template names', () => {
  it("'./map.jinja' from a file cached under a local path is the file server's pkgs/map.jinja", async () => {
    const out = await render("{% from './map.jinja' import v %}{{ v }}", {
      'pkgs/map.jinja': '{% set v = 7 %}',
    });
    expect(out).toBe('7');
  });

  it('an imported file resolves its own relative names against the rendered template folder', async () => {
    const files = {
      'lib/a.jinja': "{% from './b.jinja' import v %}{% set w = v %}",
      'pkgs/b.jinja': '{% set v = "rendered dir" %}',
      'lib/b.jinja': '{% set v = "importing dir" %}',
    };
    expect(await render("{% from '../lib/a.jinja' import w %}{{ w }}", files)).toBe('rendered dir');
  });

  it("after a plain name is loaded, './x' starts from that file's folder (Salt's loader state)", async () => {
    const files = {
      'pkgs/map.jinja': "{% import_yaml './defaults.yaml' as d %}{% set v = d.v %}",
      'pkgs/defaults.yaml': 'v: from pkgs',
      'pkgs/golang/defaults.yaml': 'v: from golang',
    };
    const out = await render("{% from 'pkgs/map.jinja' import v %}{{ v }}", files, 'pkgs/golang/clean.sls');
    expect(out).toBe('from pkgs');
  });

  it('a name that climbs above the top of the file server is not found', async () => {
    await expect(render("{% import '../../x.jinja' as x %}", { 'x.jinja': '' })).rejects.toMatchObject({
      code: 'SALT_ERR_RENDER_MISSING',
    });
    expect(
      await render("{% from './x.jinja' import v %}{{ v }}", { 'x.jinja': '{% set v = 1 %}' }, 'top.sls'),
    ).toBe('1');
  });
});
