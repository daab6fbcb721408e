import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../modules/_fake-ctx.js';
import { strftime } from './dates.js';
import { manageSchedule } from './schedule-manage.js';
import { type ScheduledRun, Scheduler } from './scheduler.js';

const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) =>
  new Date(y, mo - 1, d, h, mi, s).getTime();

/** A scheduler on a hand-moved clock: `advance(ms)` moves both clocks, `jump(ms)` the wall clock only. */
function harness(schedule: Record<string, unknown>, opts: { random?: () => number; pillar?: unknown } = {}) {
  const clock = { wall: at(2026, 11, 27, 10, 0, 0), mono: 1_000_000 };
  const runs: ScheduledRun[] = [];
  const pending: Array<() => void> = [];
  let hold = false;
  const log = memoryLogger();
  const s = new Scheduler({
    schedule,
    loopInterval: 1,
    log,
    clock: { wall: () => clock.wall, mono: () => clock.mono },
    random: opts.random ?? (() => 0),
    pillar: () => opts.pillar,
    run: (r) => {
      runs.push(r);
      return hold ? new Promise<void>((res) => pending.push(res)) : Promise.resolve();
    },
  });
  const count = (name: string) => runs.filter((r) => r.name === name).length;
  return {
    s,
    clock,
    runs,
    log,
    count,
    hold: (on: boolean) => {
      hold = on;
    },
    release: async () => {
      for (const r of pending.splice(0)) r();
      await new Promise((r) => setImmediate(r));
    },
    /** Moves both clocks by `ms` in steps of `step`, evaluating at each. */
    async advance(ms: number, step = 100) {
      for (let t = 0; t < ms; t += step) {
        clock.wall += step;
        clock.mono += step;
        s.tick();
        // the runs that ended free their maxrunning slot
        await new Promise((r) => setImmediate(r));
      }
    },
    jump(ms: number) {
      clock.wall += ms;
    },
  };
}

describe('intervals (monotonic clock)', () => {
  it('a 1-second job runs once a second, first one second after start', async () => {
    const h = harness({ j: { function: 'test.ping', seconds: 1 } });
    h.s.tick();
    expect(h.count('j')).toBe(0);
    await h.advance(5000);
    expect(h.count('j')).toBe(5);
  });

  it('minutes, hours and days add up; the sleep returned reaches the next run', async () => {
    const h = harness({ j: { function: 'test.ping', minutes: 1, seconds: 30 } });
    h.s.tick();
    expect(h.s.runtime('j').seconds).toBe(90);
    expect(h.s.tick()).toBe(1000); // never sleeps past a second
    await h.advance(90_000, 1000);
    expect(h.count('j')).toBe(1);
  });

  it('a pause far longer than the interval gives one run, not a burst', async () => {
    const h = harness({ j: { function: 'test.ping', seconds: 1 } });
    h.s.tick();
    h.clock.mono += 60_000;
    h.clock.wall += 60_000;
    h.s.tick();
    expect(h.count('j')).toBe(1);
    await h.advance(2000);
    expect(h.count('j')).toBe(3);
  });

  it('a wall-clock jump (NTP step, either way) neither fires nor holds interval jobs', async () => {
    const h = harness({ j: { function: 'test.ping', seconds: 10 } });
    h.s.tick();
    h.jump(86_400_000);
    await h.advance(5000);
    expect(h.count('j')).toBe(0);
    h.jump(-2 * 86_400_000);
    await h.advance(5000);
    expect(h.count('j')).toBe(1);
  });
});

describe('wall-clock times', () => {
  it('cron with seconds fires on time, and once per matching second', async () => {
    const h = harness({ c: { function: 'test.ping', cron: '* * * * * */15' } });
    await h.advance(60_000);
    expect(h.count('c')).toBe(4);
  });

  it('cron after a clock jump: forward, one run and no burst; back, recomputed from the new time', async () => {
    const h = harness({ c: { function: 'test.ping', cron: '*/5 * * * *' } });
    h.s.tick();
    h.jump(3_600_000);
    await h.advance(200);
    expect(h.count('c')).toBe(1);
    h.jump(-7_200_000); // back to 09:00:00.2: the next run is 09:05, not 11:05
    await h.advance(300_000, 1000);
    expect(h.count('c')).toBe(2);
  });

  it('once: runs at its time only; a time already past is not run late', async () => {
    const h = harness({
      o: { function: 'test.ping', once: '2026-11-27T10:00:05' },
      late: { function: 'test.ping', once: '2026-11-27T09:00:00' },
      fmt: { function: 'test.ping', once: '27/11/2026 10:00:07', once_fmt: '%d/%m/%Y %H:%M:%S' },
    });
    await h.advance(20_000);
    expect([h.count('o'), h.count('late'), h.count('fmt')]).toEqual([1, 0, 1]);
  });

  it('when: a list of times and named times (whens), each once', async () => {
    const h = harness({ w: { function: 'test.ping', when: ['10:00:03', '2026-11-27 10:00:06', 'nope'] } });
    expect(h.s.errorsOf('w', { function: 'test.ping', when: ['nope'] })).toEqual([
      'Invalid date string nope. Ignoring job w.',
    ]);
    const h2 = harness({ w: { function: 'test.ping', when: ['10:00:03', '2026-11-27 10:00:06'] } });
    await h2.advance(10_000);
    expect(h2.count('w')).toBe(2);
    expect(h.count('w')).toBe(0);
  });
});

describe('options that decide a run', () => {
  it('run_on_start runs at the first evaluation', async () => {
    const h = harness({ j: { function: 'test.ping', minutes: 10, run_on_start: true } });
    h.s.tick();
    expect(h.count('j')).toBe(1);
  });

  it('maxrunning: a job still running is not started again', async () => {
    const h = harness({
      j: { function: 'test.ping', seconds: 1 },
      two: { function: 'test.ping', seconds: 1, maxrunning: 2 },
    });
    h.hold(true);
    h.s.tick();
    await h.advance(5000);
    expect([h.count('j'), h.count('two')]).toEqual([1, 2]);
    expect(h.s.runtime('j').skipped?.reason).toBe('maxrunning');
    h.hold(false);
    await h.release();
    await h.advance(1000);
    expect([h.count('j'), h.count('two')]).toEqual([2, 3]);
  });

  it('splay holds a due run back by 1..splay seconds', async () => {
    const h = harness({ j: { function: 'test.ping', seconds: 10, splay: 5 } }, { random: () => 0.99 });
    h.s.tick();
    await h.advance(10_000);
    expect(h.count('j')).toBe(0);
    await h.advance(5000);
    expect(h.count('j')).toBe(1);
  });

  it("range, until and after skip runs with Salt's reasons; disabled jobs and schedules do not run", async () => {
    const h = harness({
      in_range: { function: 'test.ping', seconds: 1, range: { start: '9:00am', end: '11:00am' } },
      out_range: { function: 'test.ping', seconds: 1, range: { start: '1:00pm', end: '2:00pm' } },
      inverted: {
        function: 'test.ping',
        seconds: 1,
        range: { start: '9:00am', end: '11:00am', invert: true },
      },
      until: { function: 'test.ping', seconds: 1, until: '9:00am' },
      after: { function: 'test.ping', seconds: 1, after: '11:00am' },
      skip: { function: 'test.ping', seconds: 1, skip_during_range: { start: '9:00am', end: '11:00am' } },
      off: { function: 'test.ping', seconds: 1, enabled: false },
    });
    h.s.tick();
    await h.advance(3000);
    expect(
      Object.fromEntries(
        ['in_range', 'out_range', 'inverted', 'until', 'after', 'skip', 'off'].map((n) => [n, h.count(n)]),
      ),
    ).toEqual({
      in_range: 3,
      out_range: 0,
      inverted: 0,
      until: 0,
      after: 0,
      skip: 0,
      off: 0,
    });
    expect(h.s.runtime('out_range').skipped?.reason).toBe('not_in_range');
    expect(h.s.runtime('until').skipped?.reason).toBe('until_passed');
    expect(h.s.runtime('after').skipped?.reason).toBe('after_not_passed');
    expect(h.s.runtime('skip').skipped?.reason).toBe('in_skip_range');
    expect(h.s.runtime('off').skipped?.reason).toBe('disabled');
    const g = harness({ enabled: false, j: { function: 'test.ping', seconds: 1 } });
    await g.advance(3000);
    expect(g.count('j')).toBe(0);
  });

  it('bad entries are logged once and skipped; the others run', async () => {
    const h = harness({
      ok: { function: 'test.ping', seconds: 1 },
      neg: { function: 'test.ping', seconds: -1 },
      cron: { function: 'test.ping', cron: 'bad' },
      key: { function: 'test.ping', seconds: 1, colour: 'blue' },
      both: { function: 'test.ping', seconds: 1, cron: '* * * * *' },
      nofun: { seconds: 1 },
      notmap: 'x',
    });
    h.s.tick();
    await h.advance(3000);
    expect(h.runs.map((r) => r.name)).toEqual(['ok', 'ok', 'ok']);
    const errors = h.log.lines.filter((l) => l[0] === 'error').map((l) => l[2]);
    expect(errors).toEqual([
      'Invalid seconds -1: an interval is a number of 0 or more. Ignoring job neg.',
      'Invalid cron string. Ignoring job cron.',
      'Invalid option "colour" in scheduled job key. Ignoring job key.',
      'Unable to use "seconds", "minutes", "hours", "days" with "when", "cron", "once" options. Ignoring',
      'Scheduled job nofun names no function. Ignoring job nofun.',
      'Scheduled job "notmap" should have a dict value, not <class \'str\'>',
    ]);
  });

  it('pillar jobs run beside the configured ones; the configured one wins a name', async () => {
    const pillar = { p: { function: 'test.ping', seconds: 1 }, same: { function: 'test.echo', seconds: 1 } };
    const h = harness({ same: { function: 'test.ping', seconds: 1 } }, { pillar });
    h.s.tick();
    await h.advance(1000);
    expect(h.runs.map((r) => `${r.name}:${r.fun}`).sort()).toEqual(['p:test.ping', 'same:test.ping']);
    expect(h.s.fromPillar('p')).toBe(true);
  });
});

describe('manage_schedule calls', () => {
  it('add, modify, disable, postpone, job_status, delete', async () => {
    const h = harness({});
    const add = await manageSchedule(h.s, {
      func: 'add',
      name: 'j',
      schedule: { j: { function: 'test.ping', seconds: 1 } },
    });
    expect(add.schedule).toEqual({ j: { function: 'test.ping', seconds: 1, enabled: true, name: 'j' } });
    expect(add.event).toBe('schedule_add_complete');
    const bad = await manageSchedule(h.s, {
      func: 'add',
      name: 'b',
      schedule: { b: { function: 'test.ping', cron: 'x' } },
    });
    expect(bad.errors).toEqual(['Invalid cron string. Ignoring job b.']);
    h.s.tick();
    await h.advance(2000);
    expect(h.count('j')).toBe(2);
    await manageSchedule(h.s, { func: 'disable_job', name: 'j', persist: false });
    await h.advance(2000);
    expect(h.count('j')).toBe(2);
    await manageSchedule(h.s, { func: 'enable_job', name: 'j', persist: false });
    await manageSchedule(h.s, { func: 'modify', name: 'j', schedule: { function: 'test.ping', minutes: 1 } });
    h.s.tick();
    const due = h.clock.wall + 60_000;
    // postpone the run due in a minute by 6 seconds
    await manageSchedule(h.s, {
      func: 'postpone_job',
      name: 'j',
      time: strftime(due),
      new_time: strftime(due + 6000),
    });
    await h.advance(60_000, 1000);
    expect(h.count('j')).toBe(2);
    const status = await manageSchedule(h.s, { func: 'job_status', name: 'j' });
    expect(status.data).toMatchObject({
      function: 'test.ping',
      name: 'j',
      _seconds: 60,
      _skip_reason: 'skip_explicit',
    });
    expect(status.data?._next_fire_time).toBe(strftime(due + 60_000));
    await h.advance(6000, 1000);
    expect(h.count('j')).toBe(3);
    const del = await manageSchedule(h.s, { func: 'delete', name: 'j' });
    expect(del.schedule).toEqual({});
  });
});
