// The #!js renderer: a real module file in a temp dir, edited between renders.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPipeline } from './pipeline.js';
import { saltFunctionsFrom } from './salt-functions.js';
import type { RenderContext } from './types.js';

let dir: string;
const context: RenderContext = {
  grains: { os: 'Debian' },
  pillar: { port: 8080 },
  opts: {},
  salt: saltFunctionsFrom({ 'test.echo': async ([x]) => x }),
  saltenv: 'base',
  sls: 'app',
};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-js-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function render(name: string, text: string) {
  const path = join(dir, name);
  await writeFile(path, text);
  return renderPipeline(text, { path, context });
}

describe('js renderer', () => {
  it('runs the exported function of the render context, awaiting salt calls', async () => {
    const src = `#!js\nexport default async function (ctx) {\n  return { pkg: { 'pkg.installed': [{ name: ctx.grains.os === 'Debian' ? 'nginx-full' : 'nginx' }] }, port: ctx.pillar.port, echo: await ctx.salt.call('test.echo', ['hi'], {}), sls: ctx.sls };\n}\n`;
    expect(await render('app.sls', src)).toEqual({
      pkg: { 'pkg.installed': [{ name: 'nginx-full' }] },
      port: 8080,
      echo: 'hi',
      sls: 'app',
    });
  });

  it('loads an edited file anew (no stale module)', async () => {
    expect(await render('v.sls', '#!js\nexport function run() { return { v: 1 }; }\n')).toEqual({ v: 1 });
    expect(await render('v.sls', '#!js\nexport function run() { return { v: 2 }; }\n')).toEqual({ v: 2 });
  });

  it('names the file, line and column of a failure', async () => {
    await expect(
      render('bad.sls', '#!js\nexport default () => {\n  throw new Error("boom");\n};\n'),
    ).rejects.toMatchObject({
      code: 'SALT_ERR_RENDER_FAILED',
      message: expect.stringMatching(/bad\.sls, line 3, column \d+: the module failed: boom/),
    });
    await expect(render('none.sls', '#!js\nexport const x = 1;\n')).rejects.toMatchObject({
      message: expect.stringMatching(/must export a function/),
    });
  });
});
