import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { which } from '../modules/_which.js';
import cmdMod from '../modules/cmd.js';
import fileMod from '../modules/file.js';
import localeMod from '../modules/locale.js';
import timezoneMod from '../modules/timezone.js';
import { moduleCtx, runState } from './_test-ctx.js';
import locale from './locale.js';
import timezone from './timezone.js';

// Reads and test=True predictions only: the machine's real zone and locale are never changed
// (other tests run beside these). Expectations: Salt 3006.18's answers on this machine.
const ctx = moduleCtx([cmdMod, fileMod, localeMod, timezoneMod], {
  grains: { shell: '/bin/sh', os: 'Debian', os_family: 'Debian', kernel: 'Linux' },
});
const linux = process.platform === 'linux';
const zoneTarget = (): string | null => {
  try {
    return readlinkSync('/etc/localtime');
  } catch {
    return null;
  }
};
const zone = zoneTarget()?.replace(/^.*zoneinfo\//, '') ?? null;
const other = zone === 'Europe/Paris' ? 'Asia/Tokyo' : 'Europe/Paris';

describe.skipIf(!linux || zone === null)('timezone', () => {
  it('compares zones with /etc/localtime byte for byte', async () => {
    expect(await ctx.call('timezone.zone_compare', [zone])).toBe(true);
    expect(await ctx.call('timezone.zone_compare', [other])).toBe(false);
    await expect(ctx.call('timezone.zone_compare', ['Nope/Nope'])).rejects.toThrow(
      'Can\'t find a local timezone "Nope/Nope"',
    );
  });

  it('reads the offset and zone code through date', async () => {
    expect(String(await ctx.call('timezone.get_offset', []))).toMatch(/^[+-]\d{4}$/);
    expect(String(await ctx.call('timezone.get_zonecode', []))).toMatch(/^\S+$/);
  });

  it('get_zone answers from timedatectl or /etc/timezone', async () => {
    const got = ctx.call('timezone.get_zone', []);
    if (which('timedatectl') && !existsSync('/run/systemd/system')) {
      await expect(got).rejects.toThrow(/^timedatectl failed: /);
    } else if (!which('timedatectl')) {
      expect(await got).toBe(readFileSync('/etc/timezone', 'utf8').trim());
    }
  });

  it('timezone.system refuses an unknown zone as Salt words it', async () => {
    expect(await runState(timezone, 'system', { name: 'Nope/Nope' }, { ctx, test: true })).toEqual({
      name: 'Nope/Nope',
      changes: {},
      result: false,
      comment: `Unable to compare desired timezone 'Nope/Nope' to system timezone: Can't find a local timezone "Nope/Nope"`,
    });
  });
});

describe.skipIf(!linux || !which('locale'))('locale', () => {
  it('lists the compiled locales and checks availability normalized', async () => {
    const all = (await ctx.call('locale.list_avail', [])) as string[];
    expect(all).toContain('C');
    expect(await ctx.call('locale.avail', ['C'])).toBe(true);
    expect(await ctx.call('locale.avail', ['xx_YY.UTF-8'])).toBe(false);
  });

  it('locale.present: already there, or predicted under test=True', async () => {
    expect(await runState(locale, 'present', { name: 'C' }, { ctx, test: true })).toEqual({
      name: 'C',
      changes: {},
      result: true,
      comment: 'Locale C is already present',
    });
    expect(await runState(locale, 'present', { name: 'xx_YY.UTF-8' }, { ctx, test: true })).toEqual({
      name: 'xx_YY.UTF-8',
      changes: {},
      result: null,
      comment: 'Locale xx_YY.UTF-8 needs to be generated',
    });
  });

  it('locale.present fails on a locale the system does not support', async () => {
    expect(await runState(locale, 'present', { name: 'xx_YY.UTF-8' }, { ctx })).toEqual({
      name: 'xx_YY.UTF-8',
      changes: {},
      result: false,
      comment: 'Failed to generate locale xx_YY.UTF-8',
    });
  });

  it('locale.system predicts a change under test=True and sees the current one', async () => {
    const now = String(await ctx.call('locale.get_locale', []));
    expect(await runState(locale, 'system', { name: 'xx_YY.UTF-8' }, { ctx, test: true })).toEqual({
      name: 'xx_YY.UTF-8',
      changes: {},
      result: null,
      comment: 'System locale xx_YY.UTF-8 needs to be set',
    });
    expect(await runState(locale, 'system', { name: now }, { ctx })).toEqual({
      name: now,
      changes: {},
      result: true,
      comment: `System locale ${now} already set`,
    });
  });
});
