import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cmdMod from '../modules/cmd.js';
import gitMod from '../modules/git.js';
import sysctlMod from '../modules/sysctl.js';
import type { StateModuleDef } from '../plugins/states/index.js';
import { moduleCtx, runState } from './_test-ctx.js';
import git from './git.js';
import moduleState from './module.js';
import pkg from './pkg.js';
import saltmod from './saltmod.js';
import sysctl from './sysctl.js';
import testState from './test.js';

// The state functions whose Salt 3006.18 return literal is not {name, changes, result, comment}:
// the key order is what `--out json`/`yaml` and returners show, so it is asserted, not only the values.
const ctx = moduleCtx([cmdMod, gitMod, sysctlMod]);
const keys = async (mod: StateModuleDef, fn: string, kw: Record<string, unknown>, test = true) =>
  Object.keys(await runState(mod, fn, kw, { ctx, test }));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-keyorder-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("state returns in Salt's key order per function", () => {
  it('name, result, comment, changes: git.present and test.mod_watch', async () => {
    expect(await keys(git, 'present', { name: path.join(dir, 'repo.git') })).toEqual([
      'name',
      'result',
      'comment',
      'changes',
    ]);
    expect(await keys(testState, 'mod_watch', { name: 'w', sfun: 'nop' })).toEqual([
      'name',
      'result',
      'comment',
      'changes',
    ]);
  });

  it('name, result, changes, comment: sysctl.present and the saltmod runner/wheel in test mode', async () => {
    expect(await keys(sysctl, 'present', { name: 'kernel.tsalt_nope', value: 1 })).toEqual([
      'name',
      'result',
      'changes',
      'comment',
    ]);
    for (const fn of ['runner', 'wheel']) {
      expect(await keys(saltmod, fn, { name: 'test.arg' })).toEqual(['name', 'result', 'changes', 'comment']);
    }
  });

  it('name, changes, comment, result: module.run, pkg.mod_watch refusing a sfun', async () => {
    expect(await keys(moduleState, 'run', { 'test.ping': [] })).toEqual([
      'name',
      'changes',
      'comment',
      'result',
    ]);
    expect(await keys(pkg, 'mod_watch', { name: 'p', sfun: 'held' }, false)).toEqual([
      'name',
      'changes',
      'comment',
      'result',
    ]);
  });
});
