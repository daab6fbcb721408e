import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { canVenv } from '../test/support/pip-fixture.js';
import cmdMod from './cmd.js';
import virtualenvMod from './virtualenv.js';

// Expectations: Salt 3006.18's returns for the same calls (salt-call --local, no virtualenv
// program installed, so Python's venv makes the environments).
const ctx = moduleCtx([cmdMod, virtualenvMod]);
const call = (fn: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
  ctx.call(`virtualenv.${fn}`, args, kw);
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-venv-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('virtualenv module', () => {
  it("refuses Python code spliced into an argument, as Salt's safe_py_code", async () => {
    await expect(call('get_distribution_path', [dir, 'os;x'])).rejects.toThrow(
      "Unsafe python code detected in 'os;x'",
    );
    await expect(call('get_resource_path', [dir, 'pkg', 'import'])).rejects.toThrow(
      "Unsafe python code detected in 'import'",
    );
  });

  it('says when a path is not a virtualenv', async () => {
    const none = path.join(dir, 'none');
    await expect(call('get_site_packages', [none])).rejects.toThrow(
      `Path '${none}' does not appear to be a virtualenv: '${none}/bin/python' not found.`,
    );
  });

  it("refuses virtualenv's options for venv, and asks a virtualenv program its version", async () => {
    await expect(
      call('create', [path.join(dir, 'v2')], { venv_bin: 'venv', python: '/usr/bin/python3' }),
    ).rejects.toThrow("The `python`(`--python`) option is not supported by 'venv'");
    await expect(
      call('create', [path.join(dir, 'v2')], { venv_bin: 'venv', prompt: 'hello' }),
    ).rejects.toThrow("The `prompt`(`--prompt`) option is not supported by 'venv'");
    await expect(call('create', [path.join(dir, 'v2')], { venv_bin: '/bin/false' })).rejects.toThrow(
      "Unable to get the virtualenv version output using '['/bin/false', '--version']'. Returned data: {'pid': ",
    );
  });

  it.skipIf(!canVenv)(
    'creates an environment with venv and finds its site-packages',
    async () => {
      const v = path.join(dir, 'v1');
      const r = (await call('create', [v], { venv_bin: 'venv' })) as Record<string, unknown>;
      expect(r).toMatchObject({ retcode: 0, stdout: '', stderr: '' });
      expect(Object.keys(r).sort()).toEqual(['pid', 'retcode', 'stderr', 'stdout']);
      expect(await call('get_site_packages', [v])).toMatch(
        new RegExp(`^${v}/lib/python3\\.\\d+/site-packages$`),
      );
    },
    240_000,
  );
});
