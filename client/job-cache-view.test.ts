import { describe, expect, it } from 'vitest';
import type { JobSummary, ReturnerDef } from '../kernel/jobs/returner.js';
import { filterJobs, jidDate, jobCacheView, jobMatches, startTimeDate } from './job-cache-view.js';

const job = (fun: string, tgt: string | string[], start = '2026, Nov 22 13:31:05.123456'): JobSummary => ({
  Function: fun,
  Arguments: [],
  Target: tgt,
  'Target-type': 'glob',
  User: 'root',
  StartTime: start,
});

describe('job cache view', () => {
  it('parses jids and StartTime text', () => {
    expect(jidDate('20261122133105123456')?.getMinutes()).toBe(31);
    expect(startTimeDate('2026, Nov 22 13:31:05.123456')?.getSeconds()).toBe(5);
    expect(startTimeDate('nonsense')).toBeUndefined();
  });

  it('matches function and target globs, and time bounds', () => {
    const j = job('test.ping', 'web*');
    expect(jobMatches('20261122133105123456', j, { searchFunction: 'test.*' })).toBe(true);
    expect(jobMatches('20261122133105123456', j, { searchFunction: ['cmd.*'] })).toBe(false);
    expect(jobMatches('20261122133105123456', { ...j, Minions: ['web1'] }, { searchTarget: 'web1' })).toBe(
      true,
    );
    expect(jobMatches('20261122133105123456', j, { startTime: new Date(2026, 10, 22, 13, 0) })).toBe(true);
    expect(jobMatches('20261122133105123456', j, { endTime: new Date(2026, 10, 22, 13, 0) })).toBe(false);
  });

  it('filters a getJids listing newest first with a limit', () => {
    const all = {
      '20261122133105000001': job('a.b', '*'),
      '20261122133105000003': job('a.b', '*'),
      '20261122133105000002': job('c.d', '*'),
    };
    expect(filterJobs(all, { searchFunction: 'a.*' }).map((j) => j.jid)).toEqual([
      '20261122133105000003',
      '20261122133105000001',
    ]);
    expect(filterJobs(all, { limit: 1 }).map((j) => j.jid)).toEqual(['20261122133105000003']);
  });

  it('uses the store search when it has one, getJids otherwise', async () => {
    const ctx = { opts: {}, log: console as never, options: {} };
    const plain: ReturnerDef = {
      name: 'p',
      returner: async () => {},
      getJids: async () => ({ '20261122133105000001': job('x.y', '*') }),
    };
    expect((await jobCacheView(plain, ctx).listJobs({ searchFunction: 'x.*' })).length).toBe(1);
    const searching: ReturnerDef = { name: 's', returner: async () => {}, listJobs: async () => [] };
    expect(await jobCacheView(searching, ctx).listJobs({})).toEqual([]);
    expect(await jobCacheView(searching, ctx).getJid('x')).toEqual({});
  });
});
