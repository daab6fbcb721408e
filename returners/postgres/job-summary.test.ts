import { describe, expect, it } from 'vitest';
import { jidAt, nextJid, summarizeJob } from './job-summary.js';

describe('job-summary', () => {
  it('nextJid adds one microsecond, carrying into seconds, days and years, and keeps a pid suffix', () => {
    expect(nextJid('20261122133105123456')).toBe('20261122133105123457');
    expect(nextJid('20261231235959999999')).toBe('20270101000000000000');
    expect(nextJid('20260228235959999999_42')).toBe('20260301000000000000_42');
  });

  it('jidAt gives the jid of a time', () => {
    expect(jidAt(new Date(Date.UTC(2019, 4, 1, 12, 0, 0, 5)), 7)).toBe('20190501120000005007');
  });

  it("summarizes a load in Salt's format_jid_instance shape", () => {
    const load = { fun: 'test.ping', arg: [1], tgt: 'web*', tgt_type: 'glob', user: 'alice' };
    expect(summarizeJob('20190501120000005007', load, ['web1'])).toEqual({
      Function: 'test.ping',
      Arguments: [1],
      Target: 'web*',
      'Target-type': 'glob',
      User: 'alice',
      StartTime: '2019, May 01 12:00:00.005007',
      Minions: ['web1'],
    });
  });
});
