import { describe, expect, it } from 'vitest';
import { renderPipeline } from '../pipeline.js';
import { NO_SALT_FUNCTIONS } from '../salt-functions.js';
import type { RenderContext } from '../types.js';

/** A fresh `opts` per case: stateconf's values live for one run (one opts object). */
function ctx(sls: string): RenderContext {
  return { grains: {}, pillar: {}, opts: {}, salt: NO_SALT_FUNCTIONS, saltenv: 'base', sls };
}

const render = (source: string, sls: string, c = ctx(sls)) =>
  renderPipeline(source, { path: `${sls}.sls`, context: c });

describe('stateconf renderer', () => {
  it('renames .ids to <sls>::id, adds name, resolves relative requisites and includes, adds the goal state', async () => {
    const source = [
      '#!stateconf yaml . jinja',
      'include:',
      '  - .helper',
      '  - base: ..top',
      '.conf:',
      '  file.managed:',
      '    - contents: {{ sls_dir }}',
      '    - require:',
      '      - pkg: .pkgs',
      '.pkgs: pkg.installed',
      '',
    ].join('\n');
    const out = (await render(source, 'web.db')) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['include', 'web.db::conf', 'web.db::pkgs', 'web.db::goal']);
    expect(out.include).toEqual([{ base: 'web.helper' }, { base: 'top' }]);
    expect(out['web.db::conf']).toEqual({
      'file.managed': [{ name: 'conf' }, { contents: 'web' }, { require: [{ pkg: 'web.db::pkgs' }] }],
    });
    expect(out['web.db::pkgs']).toEqual({ 'pkg.installed': [{ name: 'pkgs' }] });
    expect(out['web.db::goal']).toEqual({
      'stateconf.set': [{ require: [{ file: 'web.db::conf' }, { pkg: 'web.db::pkgs' }] }],
    });
  });

  it('gives the stateconf.set values above the end marker to the template', async () => {
    const source = [
      '#!stateconf -G',
      '.params:',
      '  stateconf.set:',
      '    - port: 8080',
      '# --- end of state config ---',
      '.run:',
      '  cmd.run:',
      '    - name: serve {{ params.port }}',
      '',
    ].join('\n');
    const out = (await render(source, 'app')) as Record<string, unknown>;
    expect(out['app::run']).toEqual({ 'cmd.run': [{ name: 'serve 8080' }] });
    expect(out['app::goal']).toBeUndefined();
  });

  it('-o orders states by requires, -s adds the start state, and a forward require is an error', async () => {
    const source = '#!stateconf -os yaml . jinja\n.a: test.nop\n.b: test.nop\n';
    const out = (await render(source, 'o')) as Record<string, unknown>;
    expect(out['o::b']).toEqual({ 'test.nop': [{ name: 'b' }, { require: [{ test: 'o::a' }] }] });
    expect(out['o::start']).toEqual({ 'stateconf.set': [{ require_in: [{ test: 'o::a' }] }] });
    expect(Object.keys(out)).toEqual(['o::a', 'o::b', 'o::start', 'o::goal']);
    const forward =
      '#!stateconf -o yaml . jinja\n.a:\n  test.nop:\n    - require:\n      - test: .b\n.b: test.nop\n';
    await expect(render(forward, 'o')).rejects.toMatchObject({
      code: 'SALT_ERR_RENDER_FAILED',
      message: expect.stringContaining(
        "State(.a:test) can't require/watch/listen/onchanges/onfail a state(.b:test) defined after it!",
      ),
    });
  });

  it('fails cleanly on an unknown renderer, a missing template part and a relative include above the top', async () => {
    await expect(render('#!stateconf bogus . jinja\n.a: test.nop\n', 'x')).rejects.toThrow(
      "Renderer: 'bogus.render' is not available!",
    );
    await expect(render('#!stateconf yaml\n.a: test.nop\n', 'x')).rejects.toThrow(
      'Invalid use of stateconf.py renderer!',
    );
    await expect(render('#!stateconf\ninclude:\n  - ...up\n', 'x')).rejects.toThrow(
      'Attempted relative include goes beyond top level package',
    );
  });

  it('-p takes high data from the renderer before it', async () => {
    const out = await render('#!yaml|stateconf -p -G\n.a: test.nop\n', 'p');
    expect(out).toEqual({ 'p::a': { 'test.nop': [{ name: 'a' }] } });
  });
});
