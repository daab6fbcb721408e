import { describe, expect, it } from 'vitest';
import { jidDate, jobMatches, NO_SEARCH } from './job-search.js';

describe('job search', () => {
  const job = { jid: '20261127143501123456', fun: 'cmd.run', target: 'web-*', user: 'saltdev' };
  it('dates a job by its jid', () => {
    expect(jidDate(job.jid)).toBe('2026-11-27');
    expect(jidDate('not-a-jid')).toBeUndefined();
  });
  it('matches function, target and user as text or glob, case-insensitively', () => {
    expect(jobMatches(job, NO_SEARCH)).toBe(true);
    expect(jobMatches(job, { ...NO_SEARCH, fun: 'CMD' })).toBe(true);
    expect(jobMatches(job, { ...NO_SEARCH, fun: 'cmd.*' })).toBe(true);
    expect(jobMatches(job, { ...NO_SEARCH, fun: 'test.*' })).toBe(false);
    expect(jobMatches(job, { ...NO_SEARCH, target: 'web', user: 'saltdev' })).toBe(true);
    expect(jobMatches(job, { ...NO_SEARCH, user: 'root' })).toBe(false);
  });
  it('keeps the jobs from one day to another, both included', () => {
    expect(jobMatches(job, { ...NO_SEARCH, from: '2026-11-27', to: '2026-11-27' })).toBe(true);
    expect(jobMatches(job, { ...NO_SEARCH, from: '2026-11-28' })).toBe(false);
    expect(jobMatches(job, { ...NO_SEARCH, to: '2026-11-26' })).toBe(false);
    expect(jobMatches(job, { ...NO_SEARCH, from: '2026-01-01' })).toBe(true);
    expect(jobMatches({ ...job, jid: 'x' }, { ...NO_SEARCH, from: '2026-01-01' })).toBe(false);
  });
});
