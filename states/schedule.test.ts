import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../modules/_fake-ctx.js';
import scheduleMod from '../modules/schedule.js';
import { manageSchedule } from '../plugins/schedule/schedule-manage.js';
import { Scheduler } from '../plugins/schedule/scheduler.js';
import type { StateFunctions } from '../plugins/states/index.js';
import { builtinStateFunctions } from '../test/support/builtin-states.js';
import { moduleCtx } from './_test-ctx.js';

// Expectations: Salt 3006.18's returns for the same SLS steps (salt-call --local with
// offline=True; a running minion's scheduler for the rest), compared in /tmp/states16.
let dir: string;
let saves: Record<string, unknown>[];
let states: StateFunctions;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-schedule-state-'));
  saves = [];
  // a real scheduler (never started) as the minion's main process holds it
  const scheduler = new Scheduler({
    schedule: {},
    loopInterval: 1,
    log: memoryLogger(),
    run: async () => {},
    persist: async (s) => {
      saves.push(s);
    },
  });
  const ctx = moduleCtx([scheduleMod], {
    opts: { config_dir: dir, default_include: 'minion.d/*.conf' },
    master: { manageSchedule: (call: Record<string, unknown>) => manageSchedule(scheduler, call) } as never,
    functions: {
      list: async () => [],
      modules: async () => [],
      get: async (fun) => (fun === 'test.ping' ? ({} as never) : undefined),
      moduleDoc: async () => undefined,
      explain: async (fun) => `'${fun}' is not available.`,
      provider: async () => undefined,
    },
  });
  states = builtinStateFunctions(ctx);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (fun: string, kw: Record<string, unknown>, test = false) =>
  states.call(`schedule.${fun}`, kw, { test });

describe('schedule.present/absent offline (the saved file, as under salt-call --local)', () => {
  it('adds, finds in correct state, modifies and removes a job', async () => {
    const job = { name: 's16_j1', function: 'test.ping', seconds: 3600, offline: true };
    expect(await run('present', job, true)).toEqual({
      name: 's16_j1',
      result: true,
      changes: {},
      comment: 'Job: s16_j1 would be added to schedule.',
    });
    expect(await run('present', job)).toEqual({
      name: 's16_j1',
      result: true,
      changes: { s16_j1: 'added' },
      comment: 'Adding new job s16_j1 to schedule',
    });
    const file = path.join(dir, 'minion.d', '_schedule.conf');
    expect(await readFile(file, 'utf8')).toContain('s16_j1');
    expect(await run('present', job)).toMatchObject({ changes: {}, comment: 'Job s16_j1 in correct state' });
    const modified = await run('present', { ...job, seconds: 7200 });
    expect(modified).toMatchObject({ result: true, comment: 'Modifying job s16_j1 in schedule' });
    expect(modified.changes).toEqual({
      s16_j1: {
        old: {
          enabled: true,
          function: 'test.ping',
          jid_include: true,
          maxrunning: 1,
          name: 's16_j1',
          seconds: 3600,
        },
        new: {
          function: 'test.ping',
          seconds: 7200,
          maxrunning: 1,
          name: 's16_j1',
          enabled: true,
          jid_include: true,
        },
      },
    });
    expect(await run('absent', { name: 's16_j1', offline: true }, true)).toEqual({
      name: 's16_j1',
      result: true,
      changes: {},
      comment: 'Job: s16_j1 would be deleted from schedule.',
    });
    expect(await run('absent', { name: 's16_j1', offline: true })).toEqual({
      name: 's16_j1',
      result: true,
      changes: { s16_j1: 'removed' },
      comment: 'Removed job s16_j1 from schedule',
    });
    expect(await run('absent', { name: 's16_j1', offline: true })).toEqual({
      name: 's16_j1',
      result: true,
      changes: {},
      comment: 'Job s16_j1 not present in schedule',
    });
  });

  it("passes schedule.add's refusal through", async () => {
    expect(
      await run('present', { name: 's16_bad', function: 'test.ping', seconds: 60, cron: '* * * * *' }),
    ).toEqual({
      name: 's16_bad',
      result: false,
      changes: {},
      comment: 'Error: Unable to use "seconds", "minutes", "hours", or "days" with "when" or "cron" options.',
    });
  });
});

describe("schedule states on a running minion's scheduler", () => {
  it('adds, disables, enables and deletes a job; the scheduler saves each change', async () => {
    const job = { name: 's16_live', function: 'test.ping', minutes: 5 };
    expect(await run('present', job)).toEqual({
      name: 's16_live',
      result: true,
      changes: { s16_live: 'added' },
      comment: 'Adding new job s16_live to schedule',
    });
    expect(saves.at(-1)).toHaveProperty('s16_live');
    expect(await run('disabled', { name: 's16_live' }, true)).toEqual({
      name: 's16_live',
      result: true,
      changes: {},
      comment: 'Job: s16_live would be disabled in schedule.',
    });
    expect(await run('disabled', { name: 's16_live' })).toEqual({
      name: 's16_live',
      result: true,
      changes: {},
      comment: 'Disabled job s16_live from schedule',
    });
    expect(saves.at(-1)?.s16_live).toMatchObject({ enabled: false });
    expect(await run('enabled', { name: 's16_live' })).toMatchObject({
      result: true,
      comment: 'Enabled job s16_live from schedule',
    });
    expect(saves.at(-1)?.s16_live).toMatchObject({ enabled: true });
    expect(await run('enabled', { name: 's16_nope' })).toMatchObject({
      result: true,
      comment: 'Job s16_nope not present in schedule',
    });
    expect(await run('absent', { name: 's16_live' })).toMatchObject({
      changes: { s16_live: 'removed' },
      comment: 'Removed job s16_live from schedule',
    });
    expect(saves.at(-1)).not.toHaveProperty('s16_live');
  });
});
