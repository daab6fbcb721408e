import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cmdMod from '../modules/cmd.js';
import pipMod from '../modules/pip.js';
import virtualenvMod from '../modules/virtualenv.js';
import { canVenv, makePipFixture, type PipFixture } from '../test/support/pip-fixture.js';
import { moduleCtx, runState } from './_test-ctx.js';
import virtualenv from './virtualenv.js';

// Expectations: Salt 3006.18's virtualenv.managed returns for the same steps (salt-call --local
// state.single, Python's venv, a wheel installed from a local folder with no index).
let fx: PipFixture | undefined;
const ctx = moduleCtx([cmdMod, pipMod, virtualenvMod]);
const st = (kw: Record<string, unknown>, test = false) => runState(virtualenv, 'managed', kw, { ctx, test });

beforeAll(async () => {
  if (canVenv) fx = await makePipFixture();
}, 300_000);
afterAll(() => (fx ? rm(fx.dir, { recursive: true, force: true }) : undefined));

describe.skipIf(!canVenv)('virtualenv.managed', () => {
  it('predicts, creates, finds, installs requirements, and predicts a clear', async () => {
    const { dir, wheels } = fx as PipFixture;
    const name = path.join(dir, 'managed');
    const base = { name, changes: {} };
    expect(await st({ name }, true)).toEqual({
      ...base,
      result: null,
      comment: `Virtualenv ${name} is set to be created`,
    });
    // `python -V` prints to stdout: Salt's run_stderr of it is empty
    expect(await st({ name })).toEqual({
      ...base,
      result: true,
      comment: 'Created new virtualenv',
      changes: { new: '' },
    });
    expect(await st({ name })).toEqual({ ...base, result: true, comment: 'virtualenv exists' });
    expect(await st({ name }, true)).toEqual({
      ...base,
      result: true,
      comment: `Virtualenv ${name} is already created`,
    });
    const req = path.join(dir, 'req.txt');
    await writeFile(req, 'tsalt-fixture==1.0\n');
    const pipKw = { requirements: req, no_index: true, find_links: wheels };
    expect(await st({ name, ...pipKw })).toEqual({
      ...base,
      result: true,
      comment: 'virtualenv exists',
      changes: { packages: { new: ['tsalt-fixture==1.0'], old: '' } },
    });
    expect(await st({ name, ...pipKw })).toEqual({ ...base, result: true, comment: 'virtualenv exists' });
    expect(await st({ name, clear: true }, true)).toEqual({
      ...base,
      result: null,
      comment: `Virtualenv ${name} is set to be cleared`,
      // pip freeze --all: the environment's own pip (and setuptools, by Python version) too
      changes: {
        cleared_packages: expect.arrayContaining(['tsalt-fixture==1.0', expect.stringMatching(/^pip==/)]),
        old: '',
      },
    });
  }, 300_000);

  it('fails with the create error when the program fails', async () => {
    const { dir } = fx as PipFixture;
    const name = path.join(dir, 'bad');
    await expect(st({ name, venv_bin: '/bin/false' })).rejects.toThrow(
      'Unable to get the virtualenv version output',
    );
  });
});
