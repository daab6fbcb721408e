import { describe, expect, it } from 'vitest';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import type { MinionJob, MinionJobOutcome } from '../kernel/jobs/types.js';
import { memoryLogger } from '../modules/_fake-ctx.js';
import { manageSchedule } from '../plugins/schedule/schedule-manage.js';
import { type ScheduledRun, Scheduler } from '../plugins/schedule/scheduler.js';
import {
  MINE_SCHEDULE_NAME,
  mineHasWork,
  mineReturnLoad,
  mineScheduleEntry,
  runMineOnce,
  scheduleMine,
  skippedMineRun,
} from './mine-interval.js';

const config = (extra: Record<string, unknown>) => ({ extra }) as unknown as ResolvedMinionConfig;
const ok: MinionJobOutcome = { return: true, retcode: 0, success: true };
const work = { mine_functions: { 'test.ping': [] } };

/** A real scheduler (never started: runs are asked for by hand) whose saves are recorded. */
function scheduler(schedule: Record<string, unknown> = {}) {
  const saved: Record<string, unknown>[] = [];
  const runs: ScheduledRun[] = [];
  const s = new Scheduler({
    schedule,
    loopInterval: 1,
    log: memoryLogger(),
    run: async (r) => {
      runs.push(r);
    },
    persist: async (sched) => {
      saved.push(sched);
    },
  });
  return { s, saved, runs };
}

describe("the mine's job on the scheduler (Salt's __mine_interval)", () => {
  it("is Salt's entry, added and saved, and listed as Salt lists it", async () => {
    const { s, saved } = scheduler({ job1: { function: 'test.ping', seconds: 60 } });
    await scheduleMine(s, config({ mine_interval: 30 }), async () => {});
    const entry = {
      function: 'mine.update',
      minutes: 30,
      jid_include: true,
      maxrunning: 2,
      run_on_start: true,
      return_job: false,
    };
    expect(Object.keys(mineScheduleEntry(config({})) ?? {})).toEqual(Object.keys(entry));
    expect(saved.at(-1)?.[MINE_SCHEDULE_NAME]).toEqual({ ...entry, enabled: true });
    const listed = await manageSchedule(s, { func: 'list' });
    expect(listed.schedule?.[MINE_SCHEDULE_NAME]).toEqual({
      ...entry,
      enabled: true,
      name: MINE_SCHEDULE_NAME,
    });
    // run_on_start: it runs when the scheduler first evaluates it
    s.tick();
    expect(s.runtime(MINE_SCHEDULE_NAME).lastRun).toBeDefined();
  });

  it('with mine_enabled: False it is taken out (and saved so); a bad option is refused', async () => {
    const { s, saved } = scheduler({ [MINE_SCHEDULE_NAME]: { function: 'mine.update', minutes: 60 } });
    await scheduleMine(s, config({ mine_enabled: false }), async () => {});
    expect(s.merged('opts').has(MINE_SCHEDULE_NAME)).toBe(false);
    expect(saved.at(-1)).toEqual({});
    expect(() => mineScheduleEntry(config({ mine_interval: -1 }))).toThrow(
      expect.objectContaining({ code: 'SALT_ERR_CONFIG_INVALID' }),
    );
  });

  it('mine_interval: 0 runs one update now, outside the schedule', async () => {
    const { s, saved } = scheduler();
    let once = 0;
    await scheduleMine(s, config({ mine_interval: 0 }), async () => {
      once++;
    });
    expect(once).toBe(1);
    expect(saved).toEqual([]);
    expect(s.merged('opts').has(MINE_SCHEDULE_NAME)).toBe(false);
  });

  it('a run with nothing to do is skipped (no job process), unless its return is wanted', () => {
    const job: MinionJob = {
      jid: '20261127120000000001',
      fun: 'mine.update',
      arg: [],
      schedule: MINE_SCHEDULE_NAME,
    };
    expect(skippedMineRun(job, config({}), {})).toEqual({ return: null, retcode: 0, success: true });
    expect(skippedMineRun(job, config(work), {})).toBeUndefined();
    expect(skippedMineRun(job, config({}), { mine_functions: { a: [] } })).toBeUndefined();
    expect(skippedMineRun(job, config({ mine_return_job: true }), {})).toBeUndefined();
    expect(skippedMineRun({ ...job, schedule: 'other' }, config({}), {})).toBeUndefined();
    expect(mineHasWork({}, { master: { mine_functions: { a: [] } } })).toBe(true);
    expect(mineHasWork({}, { mine_functions: {} })).toBe(false);
  });

  it("the one update outside the schedule sends its return with mine_return_job, as a scheduled job's", async () => {
    const jobs: MinionJob[] = [];
    const sent: Record<string, unknown>[] = [];
    await runMineOnce({
      config: config({ mine_interval: 0, mine_return_job: true }),
      id: 'm1',
      run: async (job) => {
        jobs.push(job);
        return ok;
      },
      send: async (load) => {
        sent.push(load);
      },
      pillar: () => ({}),
      newJid: () => '20261127120000000002',
    });
    expect(jobs).toEqual([
      { jid: '20261127120000000002', fun: 'mine.update', arg: [], schedule: MINE_SCHEDULE_NAME },
    ]);
    expect(sent).toEqual([mineReturnLoad('m1', ok)]);
    expect(Object.keys(sent[0] ?? {})).toEqual([
      'cmd',
      'id',
      'fun',
      'fun_args',
      'schedule',
      'jid',
      'pid',
      'return',
      'retcode',
      'success',
    ]);
  });
});
