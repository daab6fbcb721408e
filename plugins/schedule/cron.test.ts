import { describe, expect, it } from 'vitest';
import { CronSyntaxError, nextCronTime, parseCron } from './cron.js';

const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) =>
  new Date(y, mo - 1, d, h, mi, s).getTime();
const next = (expr: string, from: number) => {
  const t = nextCronTime(parseCron(expr), from);
  return t === undefined ? undefined : new Date(t);
};

describe('cron expressions (croniter syntax: the optional seconds field is the sixth)', () => {
  it('five fields: the next minute that matches, seconds 0', () => {
    expect(next('*/5 * * * *', at(2026, 11, 27, 10, 2, 30))).toEqual(new Date(at(2026, 11, 27, 10, 5)));
    expect(next('0 9 * * *', at(2026, 11, 27, 10))).toEqual(new Date(at(2026, 11, 28, 9)));
    expect(next('30 2 1 * *', at(2026, 12, 15))).toEqual(new Date(at(2027, 1, 1, 2, 30)));
  });

  it('the sixth field is seconds', () => {
    expect(next('* * * * * */10', at(2026, 11, 27, 10, 0, 3))).toEqual(new Date(at(2026, 11, 27, 10, 0, 10)));
    expect(next('0 * * * * 30', at(2026, 11, 27, 10, 0, 30))).toEqual(new Date(at(2026, 11, 27, 11, 0, 30)));
  });

  it('is strictly after the given time', () => {
    expect(next('* * * * *', at(2026, 11, 27, 10, 0, 0))).toEqual(new Date(at(2026, 11, 27, 10, 1)));
  });

  it('names, ranges, lists, steps on ranges, Sunday as 0 or 7', () => {
    // 27 Nov 2026 is a Friday
    expect(next('0 8 * * mon-fri', at(2026, 11, 27, 9))).toEqual(new Date(at(2026, 11, 30, 8)));
    expect(next('0 0 * * 7', at(2026, 11, 27))).toEqual(new Date(at(2026, 11, 29)));
    expect(next('0 0 * * sun', at(2026, 11, 27))).toEqual(new Date(at(2026, 11, 29)));
    expect(next('0 0 1 jan,jul *', at(2026, 11, 27))).toEqual(new Date(at(2027, 1, 1)));
    expect(next('10-20/5 * * * *', at(2026, 11, 27, 10, 16))).toEqual(new Date(at(2026, 11, 27, 10, 20)));
  });

  it('both day fields restricted: either one matches (cron and croniter)', () => {
    // the 1st of the month or a Monday, whichever comes first after Fri 27 Nov: Mon 30 Nov
    expect(next('0 0 1 * 1', at(2026, 11, 27))).toEqual(new Date(at(2026, 11, 30)));
  });

  it('shorthands', () => {
    expect(next('@hourly', at(2026, 11, 27, 10, 30))).toEqual(new Date(at(2026, 11, 27, 11)));
    expect(next('@daily', at(2026, 11, 27, 10, 30))).toEqual(new Date(at(2026, 11, 28)));
  });

  it('a time that never comes gives undefined', () => {
    expect(next('0 0 30 2 *', at(2026, 11, 27))).toBeUndefined();
  });

  it('bad expressions throw CronSyntaxError', () => {
    for (const bad of [
      '',
      'not a cron',
      '* * * *',
      '61 * * * *',
      '* * * * * * *',
      '5-1 * * * *',
      '*/0 * * * *',
      'x * * * *',
    ])
      expect(() => parseCron(bad), bad).toThrow(CronSyntaxError);
  });
});
