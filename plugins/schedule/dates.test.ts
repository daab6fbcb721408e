import { describe, expect, it } from 'vitest';
import { parseDate, strftime, strptime } from './dates.js';

const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) =>
  new Date(y, mo - 1, d, h, mi, s).getTime();
// Friday 27 November 2026, 10:00 local time
const NOW = at(2026, 11, 27, 10);

describe('strptime / strftime (Python directives, local time)', () => {
  it('reads and writes the default %Y-%m-%dT%H:%M:%S', () => {
    expect(strptime('2030-01-01T10:00:00')).toBe(at(2030, 1, 1, 10));
    expect(strftime(at(2030, 1, 1, 10, 5, 9))).toBe('2030-01-01T10:05:09');
  });
  it('other formats, 12-hour clocks, month names', () => {
    expect(strptime('01/02/30 4:05PM', '%m/%d/%y %I:%M%p')).toBe(at(2030, 1, 2, 16, 5));
    expect(strptime('5 Jan 2027', '%d %b %Y')).toBe(at(2027, 1, 5));
    expect(strftime(at(2027, 1, 5, 16), '%a %d %B %Y %I%p')).toBe('Tue 05 January 2027 04PM');
  });
  it('refuses what Python refuses', () => {
    expect(strptime('bad')).toBeUndefined();
    expect(strptime('2030-02-30T10:00:00')).toBeUndefined();
    expect(strptime('2030-01-01 10:00:00')).toBeUndefined();
    expect(strptime(12)).toBeUndefined();
  });
});

describe('parseDate (what python-dateutil reads in when/range/until/after)', () => {
  it('full dates and times', () => {
    expect(parseDate('2030-01-01 10:00', NOW)).toBe(at(2030, 1, 1, 10));
    expect(parseDate('2030-01-01T10:00:00', NOW)).toBe(at(2030, 1, 1, 10));
    expect(parseDate('11/29/2026 4:00pm', NOW)).toBe(at(2026, 11, 29, 16));
    expect(parseDate('Jan 5 2027 10:00', NOW)).toBe(at(2027, 1, 5, 10));
    expect(parseDate('2030-01-01', NOW)).toBe(at(2030, 1, 1));
  });
  it('a time alone is today; a weekday is the next such day, today included', () => {
    expect(parseDate('5:00pm', NOW)).toBe(at(2026, 11, 27, 17));
    expect(parseDate('5pm', NOW)).toBe(at(2026, 11, 27, 17));
    expect(parseDate('17:30', NOW)).toBe(at(2026, 11, 27, 17, 30));
    expect(parseDate('Monday 5:00pm', NOW)).toBe(at(2026, 11, 30, 17));
    expect(parseDate('Friday 9:00am', NOW)).toBe(at(2026, 11, 27, 9));
  });
  it('an explicit UTC offset', () => {
    expect(parseDate('2030-01-01T10:00:00Z', NOW)).toBe(Date.UTC(2030, 0, 1, 10));
    expect(parseDate('2030-01-01T10:00:00+02:00', NOW)).toBe(Date.UTC(2030, 0, 1, 8));
  });
  it('refuses text it cannot read', () => {
    for (const bad of ['notadate', 'the day after never', '', '25:00', '2030-13-01', '13pm'])
      expect(parseDate(bad, NOW), bad).toBeUndefined();
    expect(parseDate(5, NOW)).toBeUndefined();
  });
});
