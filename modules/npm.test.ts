import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import npmMod, { findJson } from './npm.js';

// A tiny package packed here (`npm pack`) and installed from its tarball into a temp project,
// offline: the registry is never asked.
const OFFLINE = {
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};
let dir: string;
let project: string;
let tarball: string;
const ctx = moduleCtx([cmdMod, npmMod]);
const call = (fn: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
  ctx.call(`npm.${fn}`, args, { env: OFFLINE, ...kw });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-npm-'));
  project = path.join(dir, 'project');
  const fixture = path.join(dir, 'fixture');
  await mkdir(project);
  await mkdir(fixture);
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'proj', version: '1.0.0', private: true }),
  );
  await writeFile(
    path.join(fixture, 'package.json'),
    JSON.stringify({ name: 'tsalt-fixture-npm', version: '1.2.3' }),
  );
  await writeFile(path.join(fixture, 'index.js'), 'module.exports = 42;\n');
  if (!which('npm')) return;
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: fixture,
    encoding: 'utf8',
    env: { ...process.env, ...OFFLINE },
  }).trim();
  tarball = path.join(dir, name);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.skipIf(!which('npm'))('npm in a temp project', () => {
  it('installs a packed tarball, lists it, and uninstalls it', async () => {
    // npm 7+ prints nothing on success when --silent (Salt's default), so Salt answers ''
    const r = (await call('install', [tarball], { dir: project, silent: false })) as Record<string, unknown>;
    expect(r).toMatchObject({ added: 1 });
    expect(await call('install', [], { dir: project })).toBe('');
    const listed = (await call('list', [], { dir: project })) as Record<string, { version: string }>;
    expect(Object.keys(listed)).toEqual(['tsalt-fixture-npm']);
    expect(listed['tsalt-fixture-npm']?.version).toBe('1.2.3');
    expect(Object.keys((await call('list', ['tsalt-fixture-npm'], { dir: project })) as object)).toEqual([
      'tsalt-fixture-npm',
    ]);
    expect(await call('uninstall', ['tsalt-fixture-npm'], { dir: project })).toBe(true);
    expect(await call('list', [], { dir: project })).toEqual({});
  }, 180_000);

  it('fails as Salt does: npm errors raise, a bad depth is refused', async () => {
    await expect(call('install', [path.join(dir, 'nope.tgz')], { dir: project })).rejects.toThrow(
      /ENOENT|enoent/,
    );
    await expect(call('list', [], { dir: project, depth: 'deep' })).rejects.toThrow(
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
