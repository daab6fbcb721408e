import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cmdMod from '../modules/cmd.js';
import sysctlMod from '../modules/sysctl.js';
import { moduleCtx, runState } from './_test-ctx.js';
import sysctl from './sysctl.js';

// vm.swappiness set to the value it has (nothing changes on the machine), persisted in a temp
// config file; expectations: Salt 3006.18's returns and file for the same steps.
const can = process.getuid?.() === 0 && process.platform === 'linux';
let dir: string;
let config: string;
let value: number;
const ctx = moduleCtx([cmdMod, sysctlMod]);
const st = (kw: Record<string, unknown>, test = false) => runState(sysctl, 'present', kw, { ctx, test });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-sysctl-'));
  config = path.join(dir, 'sub', 's.conf');
  if (can) value = Number(execFileSync('sysctl', ['-n', 'vm.swappiness'], { encoding: 'utf8' }).trim());
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.skipIf(!can)('sysctl.present', () => {
  it('predicts, persists, then finds the value set', async () => {
    const name = 'vm.swappiness';
    expect(await st({ name, value, config }, true)).toEqual({
      name,
      changes: {},
      result: null,
      comment: `Sysctl value is currently set on the running system but not in a config file. Sysctl option ${name} set to be changed to ${value} in config file.`,
    });
    expect(await st({ name, value, config })).toEqual({
      name,
      changes: { [name]: value },
      result: true,
      comment: `Updated sysctl value ${name} = ${value}`,
    });
    expect(await readFile(config, 'utf8')).toBe(`#\n# Kernel sysctl configuration\n#\n${name} = ${value}\n`);
    const same = {
      name,
      changes: {},
      result: true,
      comment: `Sysctl value ${name} = ${value} is already set`,
    };
    expect(await st({ name, value, config }, true)).toEqual(same);
    expect(await st({ name, value, config })).toEqual(same);
  });

  it('fails on an unknown parameter', async () => {
    const r = await st({ name: 'tsalt.nope', value: 1, config });
    expect(r).toMatchObject({
      result: false,
      comment: 'Failed to set tsalt.nope to 1: sysctl tsalt.nope does not exist',
    });
  });
});
