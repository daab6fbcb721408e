// Render errors that say where (file, line, column, the offending line, the include chain) and
// the bounds that stop runaway templates; every template here is real text in a temp file tree.
import { describe, expect, it } from 'vitest';
import { renderPipeline } from '../pipeline.js';
import { saltFunctionsFrom } from '../salt-functions.js';
import type { RenderContext, RenderLimits } from '../types.js';
import { renderJinja } from './renderer.js';

function contextWith(files: Record<string, string>): RenderContext {
  return {
    grains: { os: 'Debian' },
    pillar: { secret: 'hunter2' },
    opts: {},
    saltenv: 'base',
    salt: saltFunctionsFrom({
      'cmd.run': async () => {
        throw new Error('command not found: frobnicate');
      },
      'test.sleep': () => new Promise((r) => setTimeout(() => r(true), 5)),
    }),
    loadFile: async (name) =>
      Object.hasOwn(files, name) ? { source: files[name] as string, path: name } : undefined,
  };
}

async function failure(source: string, files: Record<string, string> = {}, limits?: Partial<RenderLimits>) {
  try {
    await renderJinja(source, contextWith(files), { path: 'app/init.sls', limits });
  } catch (err) {
    return err as Error & {
      code: string;
      details: { line: number; column: number; chain: string[]; file: string };
    };
  }
  throw new Error('expected the render to fail');
}

describe('render errors say where', () => {
  it('an undefined variable names it, with line, column and the line itself', async () => {
    const err = await failure('a: 1\nb: {{ nope.x }}\n');
    expect(err.code).toBe('SALT_ERR_RENDER_FAILED');
    expect(err.message).toBe(
      "app/init.sls, line 2, column 4: Jinja variable 'nope' is undefined\n  2 | b: {{ nope.x }}\n    |    ^",
    );
    expect(err.details).toMatchObject({ file: 'app/init.sls', line: 2, column: 4 });
  });

  it('a failing salt call names the function and its error', async () => {
    const err = await failure("x\n{% set out = salt['cmd.run']('frobnicate') %}");
    expect(err.message).toMatch(
      /^app\/init\.sls, line 2, column 1: salt\['cmd\.run'\] failed: command not found: frobnicate/,
    );
    const missing = await failure("{{ salt['nope.fn']() }}");
    expect(missing.message).toMatch(/salt\['nope\.fn'\] is not available/);
  });

  it('an error in an imported file names that file and the chain of imports', async () => {
    const files = {
      'app/map.jinja': "{% import_yaml 'app/defaults.yaml' as d %}{% set m = d %}",
      'app/defaults.yaml': 'ok: 1\nbad: {{ grains.nope }}\n',
    };
    const err = await failure("line1\n{% from 'app/map.jinja' import m with context %}", files);
    expect(err.message).toContain(
      "app/defaults.yaml, line 2, column 6: Jinja variable 'dict object' has no attribute 'nope'",
    );
    expect(err.message).toContain('  2 | bad: {{ grains.nope }}');
    expect(err.details.chain).toEqual(['app/init.sls, line 2', 'app/map.jinja, line 1']);
    expect(err.message).toMatch(
      /included from app\/map\.jinja, line 1\n {2}included from app\/init\.sls, line 2$/,
    );
  });

  it('a missing include, a syntax error and YAML after Jinja point at their lines', async () => {
    expect((await failure("{% include 'app/none.sls' %}")).code).toBe('SALT_ERR_RENDER_MISSING');
    const syntax = await failure('a\n{% if x %}\nb\n');
    expect(syntax.code).toBe('SALT_ERR_RENDER_SYNTAX');
    expect(syntax.message).toMatch(
      /line 2, column 1: Jinja syntax error: unexpected end of template: the 'if' block/,
    );
    const yaml = renderPipeline("{% set v = 'x' %}\nkey: {{ v }}\nkey: again\n", {
      path: 'app/dup.sls',
      context: contextWith({}),
    });
    await expect(yaml).rejects.toMatchObject({
      message: expect.stringMatching(/app\/dup\.sls, line 3, column 1: found conflicting ID 'key'/),
    });
  });

  it('pillar values never appear in an error about them', async () => {
    const err = await failure('{{ pillar.secret.nope }}');
    expect(err.message).not.toContain('hunter2');
  });
});

describe('bounded renders', () => {
  it('an SLS that includes itself stops at the depth limit', async () => {
    const err = await failure(
      "{% include 'app/init.sls' %}",
      { 'app/init.sls': "{% include 'app/init.sls' %}" },
      { maxDepth: 16 },
    );
    expect(err.code).toBe('SALT_ERR_RENDER_LIMIT');
    expect(err.message).toMatch(
      /nested deeper than 16 levels loading 'app\/init\.sls' \(a file that includes itself\?\)/,
    );
  });

  it('a macro that recurses forever is stopped', async () => {
    const err = await failure('{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}');
    expect(err.code).toBe('SALT_ERR_RENDER_LIMIT');
    expect(err.message).toMatch(/macro 'f' recursed deeper than 100 calls/);
  });

  it('a loop that runs too long stops at the iteration bound, and a slow one at the time bound', async () => {
    const started = Date.now();
    const err = await failure(
      '{% for i in range(1000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}',
      {},
      { maxIterations: 100_000 },
    );
    expect(err.code).toBe('SALT_ERR_RENDER_LIMIT');
    expect(err.message).toMatch(/more than 100000 loop turns/);
    const slow = await failure(
      "{% for i in range(100000) %}{% do salt['test.sleep']() %}{% endfor %}",
      {},
      { timeoutMs: 300 },
    );
    expect(slow.code).toBe('SALT_ERR_RENDER_LIMIT');
    expect(slow.message).toMatch(/longer than 300 ms/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a YAML alias bomb through the pipeline is stopped', async () => {
    let doc = '#!yaml\na: &a ["x","x","x","x","x","x","x","x","x"]\n';
    for (const [p, n] of [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['d', 'e'],
      ['e', 'f'],
      ['f', 'g'],
      ['g', 'h'],
    ])
      doc += `${n}: &${n} [${Array(9).fill(`*${p}`).join(',')}]\n`;
    await expect(renderPipeline(doc, { path: 'bomb.sls', context: contextWith({}) })).rejects.toMatchObject({
      code: 'SALT_ERR_RENDER_LIMIT',
    });
  });

  it('output larger than the bound is stopped', async () => {
    const err = await failure("{{ 'x' * 2000 }}", {}, { maxOutput: 1000 });
    expect(err.code).toBe('SALT_ERR_RENDER_LIMIT');
  });
});
