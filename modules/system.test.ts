import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { nowAt, strftime, strptime } from './_system-time.js';
import cmdMod from './cmd.js';
import networkMod from './network.js';
import systemMod from './system.js';

// halt, poweroff, reboot, shutdown, init and the clock setters are never run here: the
// setters are checked up to the point where they would call `date`.
const ctx = moduleCtx([cmdMod, networkMod, systemMod]);
const call = (fn: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
  ctx.call(`system.${fn}`, args, kw);

describe('system clock reading', () => {
  it('prints now at a UTC offset in Salt’s formats', async () => {
    const before = Date.now();
    const got = String(await call('get_system_date_time', [], { utc_offset: '+0000' }));
    expect(got).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const at = Date.parse(`${got.replace(' ', 'T')}Z`);
    expect(Math.abs(at - before)).toBeLessThan(10 * 60_000);
    expect(await call('get_system_time', [], { utc_offset: '-0130' })).toMatch(
      /^(0\d|1[0-2]):\d\d:\d\d (AM|PM)$/,
    );
    expect(await call('get_system_date')).toMatch(/^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) \d\d\/\d\d\/\d{4}$/);
  });

  it('reads a YAML number offset as the [+-]HHMM it was written as', async () => {
    const d = new Date(Date.UTC(2024, 0, 31, 23, 30, 0));
    expect(strftime(nowAt('+0100', d), '%a %m/%d/%Y %I:%M:%S %p')).toBe('Thu 02/01/2024 12:30:00 AM');
    expect(strftime(nowAt('-1100', d), '%Y-%m-%d %H:%M:%S')).toBe('2024-01-31 12:30:00');
    const plus = await call('get_system_date', [], { utc_offset: 1400 });
    expect(plus).toBe(await call('get_system_date', [], { utc_offset: '+1400' }));
  });

  it('refuses a bad offset with Salt’s message', async () => {
    await expect(call('get_system_time', [], { utc_offset: 'bad' })).rejects.toThrow('Invalid UTC offset');
  });
});

describe('system clock setting, refused before the clock is touched', () => {
  it('answers False, or Salt’s invocation errors, for what does not parse', async () => {
    expect(await call('set_system_time', ['nonsense'])).toBe(false);
    await expect(call('set_system_date', ['13-45-2020'])).rejects.toThrow('Invalid date format');
    await expect(call('set_system_date_time', [2021, 2, 30])).rejects.toThrow(
      'day is out of range for month',
    );
    await expect(call('set_system_date_time', [2021, 13])).rejects.toThrow('month must be in 1..12');
  });

  it('parses the time and date formats Salt accepts, as strptime does', () => {
    const times = ['%I:%M:%S %p', '%I:%M %p', '%H:%M:%S', '%H:%M'];
    expect(strptime('11:20 PM', times)).toEqual({ hour: 23, minute: 20 });
    expect(strptime('12:05:09 AM', times)).toEqual({ hour: 0, minute: 5, second: 9 });
    expect(strptime('13:05', times)).toEqual({ hour: 13, minute: 5 });
    expect(strptime('13:05 PM', times)).toBeUndefined();
    const dates = ['%Y-%m-%d', '%m-%d-%Y', '%m-%d-%y', '%m/%d/%Y', '%m/%d/%y', '%Y/%m/%d'];
    expect(strptime('03-28-13', dates)).toEqual({ month: 3, day: 28, year: 2013 });
    expect(strptime('03/28/70', dates)).toEqual({ month: 3, day: 28, year: 1970 });
    expect(strptime('2015/05/12', dates)).toEqual({ year: 2015, month: 5, day: 12 });
  });
});

describe('system names', () => {
  it('gives the hostname and whether the hardware clock can be set', async () => {
    expect(await call('get_computer_name')).toBe(os.hostname());
    expect(typeof (await call('has_settable_hwclock'))).toBe('boolean');
  });
});
