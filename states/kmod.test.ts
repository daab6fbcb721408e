import { describe, expect, it } from 'vitest';
import { which } from '../modules/_which.js';
import cmdMod from '../modules/cmd.js';
import kmodMod from '../modules/kmod.js';
import { moduleCtx, runState } from './_test-ctx.js';
import kmod from './kmod.js';

// Expectations: Salt 3006.18's state.single returns on this machine for the same modules.
const ctx = moduleCtx([cmdMod, kmodMod]);
const st = (fn: string, kw: Record<string, unknown>, test = false) => runState(kmod, fn, kw, { ctx, test });

describe.skipIf(!which('lsmod') || !which('modprobe'))('kmod states', () => {
  it('present: predicts the load, then finds the module unavailable', async () => {
    expect(await st('present', { name: 'tsalt_nope' }, true)).toEqual({
      name: 'tsalt_nope',
      result: null,
      changes: {},
      comment: 'Kernel module tsalt_nope is set to be loaded',
    });
    expect(await st('present', { name: 'x', mods: ['tsalt_nope', 'tsalt_nope2'] })).toEqual({
      name: 'x',
      result: false,
      changes: {},
      comment: 'Kernel modules tsalt_nope, tsalt_nope2 are unavailable',
    });
  });

  it('absent: a module not loaded is already removed', async () => {
    expect(await st('absent', { name: 'tsalt_nope' })).toEqual({
      name: 'tsalt_nope',
      result: true,
      changes: {},
      comment: 'Kernel module tsalt_nope is already removed',
    });
    expect(await st('absent', { name: 'x', mods: ['tsalt_a', 'tsalt_b'] }, true)).toMatchObject({
      result: true,
      comment: 'Kernel modules tsalt_a, tsalt_b are already removed',
    });
  });
});
