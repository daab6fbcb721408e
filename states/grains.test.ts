import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import grainsMod from '../modules/grains.js';
import { moduleCtx, runState } from './_test-ctx.js';
import grains from './grains.js';

// A real grains file in a temp config dir; expectations: Salt 3006.18's returns and file for the
// same steps (salt-call --local state.apply, see the README's grains row).
const dir = mkdtempSync(path.join(os.tmpdir(), 'tsalt-t-grains-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = moduleCtx([grainsMod], {
  opts: { conf_file: path.join(dir, 'minion') },
  grains: { os: 'Debian' },
});
const st = (fn: string, kw: Record<string, unknown>, test = false) => runState(grains, fn, kw, { ctx, test });
const file = () => readFileSync(path.join(dir, 'grains'), 'utf8');

describe('grains states', () => {
  it('present: predicts, sets (nested and with a delimiter), then finds it set', async () => {
    expect(await st('present', { name: 'role', value: 'web' }, true)).toEqual({
      name: 'role',
      changes: { new: 'role' },
      result: null,
      comment: 'Grain role is set to be added',
    });
    const set = await st('present', { name: 'role', value: 'web' });
    expect(Object.keys(set)).toEqual(['comment', 'changes', 'result', 'name']);
    expect(set).toEqual({
      comment: 'Set grain role to web',
      changes: { role: 'web' },
      result: true,
      name: 'role',
    });
    expect(await st('present', { name: 'role', value: 'web' })).toMatchObject({
      comment: 'Grain is already set',
    });
    await st('present', { name: 'x,y', value: 'yay', delimiter: ',' });
    await st('present', { name: 'app:port', value: 8080 });
    expect(await st('exists', { name: 'app:port' })).toMatchObject({ result: true, comment: 'Grain exists' });
    expect(file()).toBe('app:\n  port: 8080\nrole: web\nx:\n  y: yay\n');
  });

  it('present refuses to overwrite a dict without force', async () => {
    expect(await st('present', { name: 'app', value: 'flat' })).toEqual({
      comment: "The key 'app' exists but is a dict or a list. Use 'force=True' to overwrite.",
      changes: {},
      result: false,
      name: 'app',
    });
    expect(await st('present', { name: 'app', value: 'flat', force: true })).toMatchObject({ result: true });
  });

  it('list_present, append, list_absent keep a list grain, written as PyYAML writes it', async () => {
    const r = await st('list_present', { name: 'roles', value: ['a', 'b'] });
    expect(r).toEqual({
      name: 'roles',
      changes: { new: { roles: ['a', 'b'] } },
      result: true,
      comment: "Append value ['a', 'b'] to grain roles",
    });
    expect(await st('append', { name: 'roles', value: 'a' })).toMatchObject({
      comment: 'Value a is already in the list for grain roles',
    });
    expect(await st('append', { name: 'role', value: 'x' })).toMatchObject({
      result: false,
      comment: 'Grain role is not a valid list',
    });
    expect(await st('append', { name: 'role', value: 'x', convert: true })).toMatchObject({
      changes: { added: 'x' },
    });
    expect(await st('list_absent', { name: 'roles', value: ['b', 'zz'] })).toEqual({
      name: 'roles',
      changes: { deleted: ['b'] },
      result: true,
      comment: 'Value b was deleted from grain roles\nValue zz is absent from grain roles',
    });
    expect(file()).toContain('role:\n- web\n- x\nroles:\n- a\n');
  });

  it('absent sets None, then deletes with destructive', async () => {
    expect(await st('absent', { name: 'app' })).toEqual({
      comment: 'Value for grain app was set to None',
      changes: { grain: 'app', value: null },
      result: true,
      name: 'app',
    });
    expect(await st('absent', { name: 'app', destructive: true }, true)).toEqual({
      name: 'app',
      changes: { deleted: 'app' },
      result: null,
      comment: 'Grain app is set to be deleted',
    });
    await st('absent', { name: 'app', destructive: true });
    expect(await st('exists', { name: 'app' })).toMatchObject({
      result: false,
      comment: 'Grain does not exist',
    });
    expect(file()).not.toContain('app:');
    expect(await st('absent', { name: 'nothere' })).toMatchObject({
      comment: 'Grain nothere does not exist',
    });
  });
});
