import { describe, expect, it } from 'vitest';
import { scheduleRows, whenOf } from './schedules-view.js';

describe('the schedules page', () => {
  it('says when a job runs from its own keys', () => {
    expect(whenOf({ seconds: 60 })).toBe('every 60 seconds');
    expect(whenOf({ hours: 1, minutes: 30 })).toBe('every 30 minutes 1 hours');
    expect(whenOf({ cron: '0 * * * *' })).toBe('cron 0 * * * *');
    expect(whenOf({ when: ['Monday 5pm', 'Friday 9am'] })).toBe('when Monday 5pm, Friday 9am');
    expect(whenOf({ once: '2026-12-01T10:00:00' })).toBe('once 2026-12-01T10:00:00');
    expect(whenOf({ function: 'test.ping' })).toBe('');
  });

  it('lists one row per minion and job; a disabled scheduler disables every job', () => {
    const rows = scheduleRows({
      m1: {
        job2: { function: 'test.ping', seconds: 5, enabled: false },
        job1: { function: 'cmd.run', minutes: 1 },
      },
      m0: { enabled: false, job1: { function: 'test.ping', seconds: 5, enabled: true } },
      m2: 'Minion did not return. [No response]',
      m3: {},
    });
    expect(rows.map((r) => [r.minion, r.name, r.fun, r.enabled])).toEqual([
      ['m0', 'job1', 'test.ping', false],
      ['m1', 'job1', 'cmd.run', true],
      ['m1', 'job2', 'test.ping', false],
    ]);
    expect(scheduleRows(undefined)).toEqual([]);
  });
});
