import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { makeNpmFixture, NPM_OFFLINE, type NpmFixture } from '../test/support/npm-fixture.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import npmMod, { findJson } from './npm.js';

// A tiny package packed here (`npm pack`) and installed from its tarball into a temp project,
// offline: the registry is never asked.
let fx: NpmFixture;
const ctx = moduleCtx([cmdMod, npmMod]);
const call = (fn: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
  ctx.call(`npm.${fn}`, args, { env: NPM_OFFLINE, ...kw });

beforeAll(async () => {
  if (which('npm')) fx = await makeNpmFixture();
}, 120_000);
afterAll(() => (fx ? rm(fx.dir, { recursive: true, force: true }) : undefined));

describe.skipIf(!which('npm'))('npm in a temp project', () => {
  it('installs a packed tarball, lists it, and uninstalls it', async () => {
    // npm 7+ prints nothing on success when --silent (Salt's default), so Salt answers ''
    const r = (await call('install', [fx.tarball], { dir: fx.project, silent: false })) as Record<
      string,
      unknown
    >;
    expect(r).toMatchObject({ added: 1 });
    expect(await call('install', [], { dir: fx.project })).toBe('');
    const listed = (await call('list', [], { dir: fx.project })) as Record<string, { version: string }>;
    expect(Object.keys(listed)).toEqual(['tsalt-fixture-npm']);
    expect(listed['tsalt-fixture-npm']?.version).toBe('1.2.3');
    expect(Object.keys((await call('list', ['tsalt-fixture-npm'], { dir: fx.project })) as object)).toEqual([
      'tsalt-fixture-npm',
    ]);
    expect(await call('uninstall', ['tsalt-fixture-npm'], { dir: fx.project })).toBe(true);
    expect(await call('list', [], { dir: fx.project })).toEqual({});
  }, 180_000);

  it('fails as Salt does: npm errors raise, a bad depth is refused', async () => {
    await expect(call('install', [path.join(fx.dir, 'nope.tgz')], { dir: fx.project })).rejects.toThrow(
      /ENOENT|enoent/,
    );
    await expect(call('list', [], { dir: fx.project, depth: 'deep' })).rejects.toThrow(
      'Error: depth deep must be a number',
    );
    expect(await call('cache_path')).toMatch(/^\//);
  }, 120_000);
});

describe('npm output', () => {
  it('finds the JSON document after npm chatter, else keeps the text', () => {
    expect(findJson('npm WARN x\n{\n "added": 1\n}')).toEqual({ added: 1 });
    expect(findJson('up to date')).toBe('up to date');
  });
});
