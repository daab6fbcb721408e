import { describe, expect, it } from 'vitest';
import { mayRunKind, mayRunMinion } from './acl.js';

describe('console ACL hints', () => {
  it('minion functions: regexes, target maps and argument maps', () => {
    expect(mayRunMinion(['test.*'], 'test.ping')).toBe(true);
    expect(mayRunMinion(['test.*'], 'cmd.run')).toBe(false);
    expect(mayRunMinion(['.*'], 'cmd.run')).toBe(true);
    expect(mayRunMinion([{ 'web*': ['cmd.run', 'test.*'] }], 'cmd.run')).toBe(true);
    expect(mayRunMinion([{ 'web*': [{ 'cmd.run': { args: ['ls'] } }] }], 'cmd.run')).toBe(true);
    expect(mayRunMinion([{ 'web*': 'pkg.*' }], 'cmd.run')).toBe(false);
    expect(mayRunMinion(['@runner', '@wheel'], 'test.ping')).toBe(false);
    expect(mayRunMinion(['('], 'test.ping')).toBe(false);
  });

  it('runner and wheel: @runner, @wheel, @jobs and restricted maps', () => {
    expect(mayRunKind(['@runner'], 'runner', 'manage.present')).toBe(true);
    expect(mayRunKind(['@jobs'], 'runner', 'jobs.list_jobs')).toBe(true);
    expect(mayRunKind(['@jobs'], 'runner', 'manage.present')).toBe(false);
    expect(mayRunKind([{ '@runner': ['jobs.*'] }], 'runner', 'jobs.lookup_jid')).toBe(true);
    expect(mayRunKind(['@wheel'], 'wheel', 'key.accept')).toBe(true);
    expect(mayRunKind(['test.*'], 'wheel', 'key.accept')).toBe(false);
    expect(mayRunKind([{ '@wheel': ['key.list_all'] }], 'wheel', 'key.accept')).toBe(false);
  });
});
