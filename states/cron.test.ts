import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../modules/_which.js';
import cmdMod from '../modules/cmd.js';
import cp from '../modules/cp.js';
import cronMod from '../modules/cron.js';
import userMod from '../modules/user.js';
import { moduleCtx, runState } from './_test-ctx.js';
import cron from './cron.js';

// A throwaway user's crontab (root and the crontab program needed: CI installs cron). The
// expectations are Salt 3006.18's returns for the same steps (`state.single cron.* user=...`).
const U = 'tsalt-t-cr';
const can = process.getuid?.() === 0 && which('crontab') !== null;
let dir: string;
let ctx: ReturnType<typeof moduleCtx>;
const st = (fn: string, kw: Record<string, unknown>, test = false) =>
  runState(cron, fn, { user: U, ...kw }, { ctx, test });
const raw = async () => String(await ctx.call('cron.raw_cron', [U]));

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-cron-'));
  ctx = moduleCtx([cmdMod, cronMod, userMod, cp], {
    opts: { file_client: 'local', file_roots: { base: [dir] }, cachedir: path.join(dir, 'cache') },
  });
  if (!can) return;
  try {
    execFileSync('userdel', [U], { stdio: 'ignore' });
  } catch {}
  execFileSync('useradd', ['-M', U]);
  // a crontab outlives its user: start from none
  try {
    execFileSync('crontab', ['-u', U, '-r'], { stdio: 'ignore' });
  } catch {}
});
afterAll(async () => {
  if (can) {
    execFileSync('crontab', ['-u', U, '-r'], { stdio: 'ignore' });
    execFileSync('userdel', [U]);
  }
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!can)('cron states', () => {
  it('adds, keeps and updates a job', async () => {
    const name = '/bin/true a';
    expect(await st('present', { name, minute: 5 }, true)).toEqual({
      name,
      changes: {},
      result: null,
      comment: `Cron ${name} is set to be added`,
    });
    const added = await st('present', { name, minute: 5 });
    // Salt's key order differs by function: present/file/env_present vs absent/env_absent
    expect(Object.keys(added)).toEqual(['changes', 'comment', 'name', 'result']);
    expect(added).toEqual({
      name,
      changes: { [U]: name },
      result: true,
      comment: `Cron ${name} added to ${U}'s crontab`,
    });
    const same = { name, changes: {}, result: true, comment: `Cron ${name} already present` };
    expect(await st('present', { name, minute: 5 })).toEqual(same);
    expect(await st('present', { name, minute: 5 }, true)).toEqual(same);
    expect(await st('present', { name, minute: 7, comment: 'hello' }, true)).toEqual({
      name,
      changes: {},
      result: null,
      comment: `Cron ${name} is set to be updated`,
    });
    expect(await st('present', { name, minute: 7, comment: 'hello' })).toEqual({
      name,
      changes: { [U]: name },
      result: true,
      comment: `Cron ${name} updated`,
    });
    await st('present', { name: '/bin/true b', special: '@hourly', identifier: 'bee' });
    await st('present', { name: '/bin/true c', hour: 3, commented: true });
  });

  it('sets and updates environment lines', async () => {
    expect(await st('env_present', { name: 'MAILTO', value: 'x@y' }, true)).toMatchObject({
      result: null,
      comment: 'Cron env MAILTO is set to be added',
    });
    expect(await st('env_present', { name: 'MAILTO', value: 'x@y' })).toEqual({
      name: 'MAILTO',
      changes: { [U]: 'MAILTO' },
      result: true,
      comment: `Cron env MAILTO added to ${U}'s crontab`,
    });
    expect(await st('env_present', { name: 'MAILTO', value: 'z@y' })).toMatchObject({
      comment: 'Cron env MAILTO updated',
    });
    await st('env_present', { name: 'EMPTY' });
    expect(await raw()).toBe(
      '# Lines below here are managed by Salt, do not edit\nMAILTO=z@y\nEMPTY=""\n# hello SALT_CRON_IDENTIFIER:/bin/true a\n7 * * * * /bin/true a\n# SALT_CRON_IDENTIFIER:/bin/true c\n#DISABLED#* 3 * * * /bin/true c\n# SALT_CRON_IDENTIFIER:bee\n@hourly /bin/true b\n',
    );
    expect(await ctx.call('cron.list_tab', [U])).toEqual({
      crons: [
        {
          cmd: '/bin/true a',
          comment: 'hello',
          commented: false,
          daymonth: '*',
          dayweek: '*',
          hour: '*',
          identifier: '/bin/true a',
          minute: '7',
          month: '*',
        },
        {
          cmd: '/bin/true c',
          comment: '',
          commented: true,
          daymonth: '*',
          dayweek: '*',
          hour: '3',
          identifier: '/bin/true c',
          minute: '*',
          month: '*',
        },
      ],
      env: [
        { name: 'MAILTO', value: 'z@y' },
        { name: 'EMPTY', value: '""' },
      ],
      pre: [],
      special: [{ cmd: '/bin/true b', comment: '', commented: false, identifier: 'bee', spec: '@hourly' }],
    });
  });

  it('removes jobs and environment lines', async () => {
    const name = '/bin/true a';
    expect(await st('absent', { name }, true)).toMatchObject({
      result: null,
      comment: `Cron ${name} is set to be removed`,
    });
    const removed = await st('absent', { name });
    expect(Object.keys(removed)).toEqual(['name', 'result', 'changes', 'comment']);
    expect(removed).toEqual({
      name,
      changes: { [U]: name },
      result: true,
      comment: `Cron ${name} removed from ${U}'s crontab`,
    });
    expect(await st('absent', { name })).toMatchObject({
      result: true,
      comment: `Cron ${name} already absent`,
    });
    expect(await st('absent', { name }, true)).toMatchObject({
      result: true,
      comment: `Cron ${name} is absent`,
    });
    expect(await st('absent', { name: '/bin/true b', special: '@hourly', identifier: 'bee' })).toMatchObject({
      comment: `Cron /bin/true b removed from ${U}'s crontab`,
    });
    expect(await st('env_absent', { name: 'MAILTO' }, true)).toMatchObject({
      result: null,
      comment: 'Cron env MAILTO is set to be removed',
    });
    expect(await st('env_absent', { name: 'MAILTO' })).toMatchObject({
      changes: { [U]: 'MAILTO' },
      comment: `Cron env MAILTO removed from ${U}'s crontab`,
    });
    expect(await st('env_absent', { name: 'MAILTO' })).toMatchObject({
      comment: 'Cron env MAILTO already absent',
    });
    const left =
      '# Lines below here are managed by Salt, do not edit\nEMPTY=""\n# SALT_CRON_IDENTIFIER:/bin/true c\n#DISABLED#* 3 * * * /bin/true c\n';
    expect(await raw()).toBe(left);
    expect(await ctx.call('cron.set_job', [U, 1, 2, 3, 4, 5, '/bin/x'])).toBe('new');
    expect(await ctx.call('cron.rm_job', [U, '/bin/x'], { minute: 9 })).toBe('absent');
    expect(await ctx.call('cron.rm_job', [U, '/bin/x'])).toBe('removed');
    expect(await raw()).toBe(left);
  });

  it('cron.file installs a whole crontab from salt://', async () => {
    await writeFile(path.join(dir, 'tab'), '# mine\n5 * * * * /bin/true z\n');
    const r = await st('file', { name: 'salt://tab' });
    expect(r).toMatchObject({ result: true, comment: `Crontab for user ${U} was updated` });
    expect(await raw()).toBe('# mine\n5 * * * * /bin/true z\n');
    expect(await st('file', { name: 'salt://tab' })).toEqual({
      name: 'salt://tab',
      changes: {},
      result: true,
      comment: `Crontab for user ${U} is in the correct state`,
    });
  });
});
