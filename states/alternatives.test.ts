import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { which } from '../modules/_which.js';
import altMod from '../modules/alternatives.js';
import { moduleCtx, runState } from './_test-ctx.js';
import alternatives from './alternatives.js';

// A throwaway alternatives group whose link lives in a temp dir; expectations: Salt 3006.18's
// returns (salt-call --local, state.single) for the same steps.
const usable =
  which('update-alternatives') !== null && existsSync('/etc/alternatives') && process.getuid?.() === 0;
const group = `tsalt-t-alt-${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-alt-'));
const link = join(dir, 'link');
const ctx = moduleCtx([altMod]);
const call = (fun: string, args: unknown[]) => ctx.call(`alternatives.${fun}`, args);
const st = (fn: string, kw: Record<string, unknown>, test = false) =>
  runState(alternatives, fn, { name: group, ...kw }, { ctx, test });
afterAll(() => {
  if (usable) execFileSync('update-alternatives', ['--remove-all', group], { stdio: 'ignore' });
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!usable)('alternatives module and states on a throwaway group', () => {
  it('registers, queries, switches and removes alternatives', async () => {
    expect(await call('show_current', [group])).toBe(false);
    expect(await call('display', [group])).toBe(`update-alternatives: error: no alternatives for ${group}`);
    expect(await st('install', { link, path: '/bin/true', priority: 10 }, true)).toEqual({
      name: group,
      link,
      path: '/bin/true',
      priority: 10,
      result: null,
      changes: {},
      comment: `Alternative will be set for ${group} to /bin/true with priority 10`,
    });
    expect(await st('install', { link, path: '/bin/true', priority: 10 })).toMatchObject({
      result: true,
      changes: { name: group, link, path: '/bin/true', priority: 10 },
      comment: `Alternative for ${group} set to path /bin/true with priority 10`,
    });
    expect(await st('install', { link, path: '/bin/false', priority: 5 })).toMatchObject({
      comment: `Alternative /bin/false for ${group} registered with priority 5 and not set to default`,
    });
    expect(await call('show_link', [group])).toBe(link);
    expect(await call('show_current', [group])).toBe('/bin/true');
    expect(await call('check_exists', [group, '/bin/false'])).toBe(true);
    expect(await call('check_installed', [group, '/bin/false'])).toBe(false);
    expect(String(await call('display', [group])).split('\n')[0]).toBe(`${group} - auto mode`);
    expect(await st('auto', {})).toMatchObject({ comment: `${group} already in auto mode`, changes: {} });
    expect(await st('set', { path: '/bin/false' }, true)).toMatchObject({
      result: null,
      comment: `Alternative for ${group} will be set to path /bin/false`,
    });
    expect(await st('set', { path: '/bin/false' })).toMatchObject({
      result: true,
      changes: { path: '/bin/false' },
      comment: `Alternative for ${group} set to path /bin/false`,
    });
    expect(await st('set', { path: '/bin/nope' })).toMatchObject({
      result: false,
      comment: `Alternative /bin/nope for ${group} doesn't exist`,
    });
    expect(await st('auto', {}, true)).toMatchObject({
      result: null,
      comment: `${group} will be put in auto mode`,
    });
    expect(await st('auto', {})).toMatchObject({
      result: true,
      changes: { result: `update-alternatives: using /bin/true to provide ${link} (${group}) in auto mode` },
    });
    expect(await st('remove', { path: '/bin/true' })).toMatchObject({
      result: true,
      changes: { path: '/bin/false' },
      comment: `Alternative for ${group} removed. Falling back to path /bin/false`,
    });
    expect(await st('remove', { path: '/bin/true' })).toMatchObject({
      result: true,
      comment: `Alternative for ${group} is set to it's default path /bin/false`,
    });
  });
});
