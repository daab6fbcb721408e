import { rm } from 'node:fs/promises';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { canVenv, makePipFixture, type PipFixture } from '../test/support/pip-fixture.js';
import cmdMod from './cmd.js';
import pipMod from './pip.js';

// A throwaway virtualenv and a wheel made in the test: pip installs it from a local folder
// with --no-index, no index is reached.
let fx: PipFixture | undefined;
let venv = '';
let wheels = '';
const ctx = moduleCtx([cmdMod, pipMod]);
const call = (fn: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
  ctx.call(`pip.${fn}`, args, kw);

beforeAll(async () => {
  if (!canVenv) return;
  fx = await makePipFixture();
  ({ venv, wheels } = fx);
}, 300_000);
afterAll(() => (fx ? rm(fx.dir, { recursive: true, force: true }) : undefined));

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
