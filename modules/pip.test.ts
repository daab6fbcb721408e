import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import pipMod from './pip.js';

// A throwaway virtualenv and a wheel made here (a wheel is a zip of the package and its
// dist-info): pip installs it from a local folder with --no-index, no index is reached.
const canVenv = (() => {
  if (!which('python3')) return false;
  try {
    execFileSync('python3', ['-c', 'import venv, ensurepip, zipfile'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const WHEEL = `
import sys, zipfile
out = sys.argv[1]
di = 'tsalt_fixture-1.0.dist-info'
files = {
  'tsalt_fixture/__init__.py': 'VALUE = 42\\n',
  di + '/METADATA': 'Metadata-Version: 2.1\\nName: tsalt-fixture\\nVersion: 1.0\\n',
  di + '/WHEEL': 'Wheel-Version: 1.0\\nGenerator: tsalt-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n',
}
with zipfile.ZipFile(out + '/tsalt_fixture-1.0-py3-none-any.whl', 'w') as z:
  for name, text in files.items():
    z.writestr(name, text)
  z.writestr(di + '/RECORD', ''.join(n + ',,\\n' for n in files) + di + '/RECORD,,\\n')
`;

let dir: string;
let venv: string;
let wheels: string;
const ctx = moduleCtx([cmdMod, pipMod]);
const call = (fn: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
  ctx.call(`pip.${fn}`, args, kw);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-pip-'));
  venv = path.join(dir, 'venv');
  wheels = path.join(dir, 'wheels');
  if (!canVenv) return;
  execFileSync('python3', ['-m', 'venv', venv], { stdio: 'ignore', timeout: 240_000 });
  execFileSync('mkdir', ['-p', wheels]);
  execFileSync('python3', ['-c', WHEEL, wheels]);
}, 300_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.skipIf(!canVenv)('pip in a throwaway virtualenv', () => {
  it('installs from a local folder, lists, freezes, and uninstalls', async () => {
    const kw = { bin_env: venv };
    expect(await call('version', [], kw)).toMatch(/^\d+\.\d+/);
    const r = (await call('install', [], {
      ...kw,
      pkgs: 'tsalt-fixture',
      find_links: wheels,
      no_index: true,
      disable_version_check: true,
    })) as { retcode: number; stdout: string };
    expect(r.retcode).toBe(0);
    expect(r.stdout).toContain('Successfully installed tsalt-fixture-1.0');
    expect(await call('list', ['tsalt'], kw)).toEqual({ 'tsalt-fixture': '1.0' });
    expect(await call('is_installed', ['TSALT-fixture'], kw)).toBe(true);
    expect(await call('freeze', [], kw)).toContain('tsalt-fixture==1.0');
    expect(await call('list_freeze_parse', ['tsalt'], kw)).toEqual({ 'tsalt-fixture': '1.0' });
    const u = (await call('uninstall', ['tsalt-fixture'], kw)) as { retcode: number; stdout: string };
    expect(u.retcode).toBe(0);
    expect(u.stdout).toContain('Successfully uninstalled tsalt-fixture-1.0');
    expect(await call('list', ['tsalt'], kw)).toEqual({});
    expect(await call('is_installed', ['tsalt-fixture'], kw)).toBe(false);
  }, 240_000);

  it("returns pip's failure as data, and answers an empty install without pip", async () => {
    const r = (await call('install', ['tsalt-nope'], {
      bin_env: venv,
      find_links: wheels,
      no_index: true,
    })) as {
      retcode: number;
      stderr: string;
    };
    expect(r.retcode).toBe(1);
    expect(r.stderr).toContain('No matching distribution found for tsalt-nope');
    expect(await call('install', [], { bin_env: venv })).toEqual({
      retcode: 0,
      stdout: 'No packages to install.',
    });
  }, 120_000);
});

describe('pip arguments refused as Salt refuses them', () => {
  it('checks links, indexes, timeouts and the environment', async () => {
    await expect(call('install', ['x'], { find_links: '/tsalt/nope' })).rejects.toThrow(
      "'/tsalt/nope' is not a valid URL or path",
    );
    await expect(call('install', ['x'], { no_index: true, index_url: 'https://x' })).rejects.toThrow(
      "'no_index' and ('index_url' or 'extra_index_url') are mutually exclusive.",
    );
    await expect(call('install', ['x'], { index_url: 'pypi.org' })).rejects.toThrow(
      "'pypi.org' is not a valid URL",
    );
    await expect(call('install', ['x'], { timeout: 1.5 })).rejects.toThrow(
      "'1.5' is not a valid timeout, must be an integer",
    );
    await expect(call('list', [], { bin_env: os.tmpdir() })).rejects.toThrow(
      `Could not find a pip binary in virtualenv ${os.tmpdir()}`,
    );
  });
});
