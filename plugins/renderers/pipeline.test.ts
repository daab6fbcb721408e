import { describe, expect, it } from 'vitest';
import { parsePipeline, pipelineOf, renderPipeline } from './pipeline.js';
import { NO_SALT_FUNCTIONS } from './salt-functions.js';
import type { RenderContext, RendererDef } from './types.js';

const context: RenderContext = {
  grains: { os: 'Debian' },
  pillar: {},
  opts: {},
  salt: NO_SALT_FUNCTIONS,
  saltenv: 'base',
};

describe('renderPipeline', () => {
  it('reads the #! line as Salt does', () => {
    expect(pipelineOf('#!jinja|yaml\na: 1', 'yaml')).toBe('jinja|yaml');
    expect(pipelineOf('#!/usr/bin/env python\n', 'jinja|yaml')).toBe('jinja|yaml');
    expect(pipelineOf('a: 1', 'jinja|json')).toBe('jinja|json');
    expect(parsePipeline('jinja | yaml strict|gpg')).toEqual([
      { name: 'jinja', argline: '' },
      { name: 'yaml', argline: 'strict' },
      { name: 'gpg', argline: '' },
    ]);
    expect(parsePipeline('yaml_jinja').map((s) => s.name)).toEqual(['jinja', 'yaml']);
  });

  it('renders #!yaml and #!json files and an empty file as {}', async () => {
    expect(await renderPipeline('#!yaml\nmode: 0644\n', { path: 'a.sls', context })).toEqual({ mode: 644 });
    expect(await renderPipeline('#!json\n{"a": [1]}\n', { path: 'a.sls', context })).toEqual({ a: [1] });
    expect(await renderPipeline('#!yaml\n', { path: 'a.sls', context })).toEqual({});
  });

  it('names an unknown renderer with the known ones', async () => {
    await expect(renderPipeline('#!mako|yaml\n', { path: 'a.sls', context })).rejects.toMatchObject({
      code: 'SALT_ERR_RENDER_UNKNOWN',
      message: expect.stringMatching(/a.sls: unknown renderer 'mako'.*known: .*yaml/),
    });
  });

  it('runs a renderer a plugin supplies', async () => {
    const upper: RendererDef = { name: 'upper', render: async (input) => String(input).toUpperCase() };
    const out = await renderPipeline('#!upper\nx', { path: 'a.txt', context, renderers: [upper] });
    expect(out).toBe('#!UPPER\nX');
  });

  it('points at the line of a JSON syntax error', async () => {
    await expect(
      renderPipeline('#!json\n{\n  "a": 1,\n}\n', { path: 'b.json', context }),
    ).rejects.toMatchObject({
      code: 'SALT_ERR_RENDER_SYNTAX',
      details: { line: 4 },
    });
  });
});
