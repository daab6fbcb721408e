import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import schedule from './schedule.js';

const kw = (o: Record<string, unknown>) => ({ ...o, __kwarg__: true });

describe('schedule without a running minion (salt-call --local): Salt answers', () => {
  it('list is `schedule: {}` as YAML, {} with return_yaml=False; is_enabled is true', async () => {
    expect((await invoke(schedule, 'list')).value).toBe('schedule: {}\n');
    expect((await invoke(schedule, 'list', [kw({ return_yaml: false })])).value).toEqual({});
    expect((await invoke(schedule, 'is_enabled')).value).toBe(true);
    expect((await invoke(schedule, 'is_enabled', ['job1'])).value).toEqual({});
  });

  it("add fails as Salt does when no minion answers; Salt's own checks come first", async () => {
    const ctx = fakeCtx({
      functions: { ...fakeCtx().functions, get: async () => ({}) as never },
    });
    expect(
      (await invoke(schedule, 'add', ['job1', kw({ function: 'test.ping', seconds: 10 })], ctx)).value,
    ).toEqual({
      comment: 'Failed to add job job1 to schedule.',
      result: false,
      changes: {},
    });
    expect(
      (
        await invoke(
          schedule,
          'add',
          ['job3', kw({ function: 'test.ping', seconds: 10, cron: '* * * * *' })],
          ctx,
        )
      ).value,
    ).toEqual({
      comment: 'Error: Unable to use "seconds", "minutes", "hours", or "days" with "when" or "cron" options.',
      result: false,
      changes: {},
    });
    expect(
      (await invoke(schedule, 'add', ['job4', kw({ function: 'test.ping', when: 'notadate' })], ctx)).value,
    ).toEqual({
      comment: 'Schedule item notadate for "when" in invalid.',
      result: false,
    });
    expect(
      (await invoke(schedule, 'add', ['job8', kw({ function: 'test.ping', job_args: 'x', seconds: 5 })], ctx))
        .value,
    ).toEqual({
      comment: 'job_args is not a list. please correct and try again.',
      result: false,
    });
  });

  it('offline=True adds to and lists the saved file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sched-mod-'));
    const ctx = fakeCtx({
      opts: { config_dir: dir, default_include: 'minion.d/*.conf' },
      functions: { ...fakeCtx().functions, get: async () => ({}) as never },
    });
    expect(
      (
        await invoke(
          schedule,
          'add',
          ['job1', kw({ function: 'test.ping', seconds: 10, offline: true })],
          ctx,
        )
      ).value,
    ).toEqual({
      comment: 'Added job: job1 to schedule.',
      result: true,
      changes: { job1: 'added' },
    });
    expect(readFileSync(join(dir, 'minion.d/_schedule.conf'), 'utf8')).toContain('job1:');
    expect((await invoke(schedule, 'list', [kw({ offline: true })], ctx)).value).toBe(
      'schedule:\n  job1:\n    enabled: true\n    function: test.ping\n    jid_include: true\n    maxrunning: 1\n    name: job1\n    saved: true\n    seconds: 10\n',
    );
    expect((await invoke(schedule, 'list', [kw({ offline: true, return_yaml: false })], ctx)).value).toEqual({
      job1: {
        function: 'test.ping',
        seconds: 10,
        maxrunning: 1,
        name: 'job1',
        enabled: true,
        jid_include: true,
      },
    });
    expect((await invoke(schedule, 'delete', ['job1', kw({ offline: true })], ctx)).value).toEqual({
      comment: 'Deleted Job job1 from schedule.',
      result: true,
      changes: { job1: 'removed' },
    });
  });

  it('a function the minion does not have is refused (tsalt checks it, Salt does not)', async () => {
    const r = await invoke(schedule, 'add', ['j', kw({ function: 'nosuch.fun', seconds: 5 })]);
    expect(r.value).toEqual({
      comment: "Failed to add job j to schedule: 'nosuch.fun' is not available.",
      result: false,
      changes: {},
    });
  });

  it("name is required as Salt's signatures say; None reaches Salt's 'Job name is required.'", async () => {
    for (const fn of [
      'add',
      'delete',
      'modify',
      'enable_job',
      'run_job',
      'job_status',
      'show_next_fire_time',
    ])
      await expect(invoke(schedule, fn)).rejects.toThrow(
        `${fn}() missing 1 required positional argument: 'name'`,
      );
    await expect(invoke(schedule, 'skip_job', ['j'])).rejects.toThrow(
      "skip_job() missing 1 required positional argument: 'current_time'",
    );
    expect((await invoke(schedule, 'run_job', [null])).value).toEqual({
      comment: 'Job None does not exist.',
      result: false,
    });
  });
});
