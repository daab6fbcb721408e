import { describe, expect, it } from 'vitest';
import { float64, NOT_SET, SaltConstant, SaltDatetime, SaltFloat } from './salt-types.js';

describe('SaltDatetime', () => {
  it('parses the ext 78 text the way strptime("%Y%m%dT%H:%M:%S.%f") does', () => {
    expect(SaltDatetime.parseWire('20251122T10:42:43.493872')?.toISOString()).toBe(
      '2025-11-22T10:42:43.493872',
    );
    expect(SaltDatetime.parseWire('20240229T23:59:59.5')?.toWire()).toBe('20240229T23:59:59.500000');
    expect(SaltDatetime.parseWire('2024111T1:2:3.000001')?.toWire()).toBe('20241101T01:02:03.000001');
    for (const bad of [
      '20230229T00:00:00.000000', // not a leap year
      '20240431T00:00:00.000000',
      '20241301T00:00:00.000000',
      '20240101T24:00:00.000000',
      '20240101T00:60:00.000000',
      '20240101T00:00:60.000000', // strptime accepts 60/61, datetime() does not
      '20240101T00:00:00',
      '20240101T00:00:00.1234567',
      '00000101T00:00:00.000000',
      '2024-01-01T00:00:00.000000',
      '',
    ]) {
      expect(SaltDatetime.parseWire(bad)).toBeUndefined();
    }
  });

  it('converts to and from Date (UTC, millisecond precision)', () => {
    const dt = SaltDatetime.parseIso('2025-11-22T10:42:43.493872') as SaltDatetime;
    expect(dt.toDate().toISOString()).toBe('2025-11-22T10:42:43.493Z');
    expect(SaltDatetime.fromDate(new Date('2024-02-29T23:59:59.005Z'))?.toWire()).toBe(
      '20240229T23:59:59.005000',
    );
    expect(SaltDatetime.fromDate(new Date(Number.NaN))).toBeUndefined();
    expect(SaltDatetime.parseIso('0050-01-02T00:00:00')?.toDate().getUTCFullYear()).toBe(50);
  });

  it('parses isoformat() text, with or without time and fraction', () => {
    expect(SaltDatetime.parseIso('2024-01-02')?.toWire()).toBe('20240102T00:00:00.000000');
    expect(SaltDatetime.parseIso('2026-11-22T11:22:09.648765')?.microsecond).toBe(648765);
    expect(SaltDatetime.parseIso('2026-11-22 11:22:09')?.second).toBe(9);
    expect(SaltDatetime.parseIso('2026-02-30')).toBeUndefined();
    expect(JSON.stringify({ t: SaltDatetime.of(2024, 1, 2) })).toBe('{"t":"2024-01-02T00:00:00.000000"}');
  });

  it('validates fields in of()', () => {
    expect(SaltDatetime.of(2024, 1, 1, 0, 0, 0, 1_000_000)).toBeUndefined();
    expect(SaltDatetime.of(2024, 1, 1.5)).toBeUndefined();
    expect(SaltDatetime.of(9999, 12, 31, 23, 59, 59, 999_999)?.toWire()).toBe('99991231T23:59:59.999999');
  });
});

describe('SaltConstant and SaltFloat', () => {
  it('NOT_SET is a frozen constant', () => {
    expect(NOT_SET).toEqual(new SaltConstant('NOT_SET', null));
    expect(Object.isFrozen(NOT_SET)).toBe(true);
    expect(new SaltConstant('X').value).toBeNull();
  });

  it('float64() wraps a number and behaves like it', () => {
    const f = float64(2);
    expect(f).toBeInstanceOf(SaltFloat);
    expect(+f).toBe(2);
    expect(JSON.stringify({ f })).toBe('{"f":2}');
  });
});
