import { describe, expect, it } from 'vitest';
import { getColors, resolveColor, SALT_COLORS } from './colors.js';

describe('Salt colours', () => {
  it('has Salt TextFormat codes, each starting with a reset', () => {
    expect(SALT_COLORS.GREEN).toBe('\x1b[0;32m');
    expect(SALT_COLORS.LIGHT_YELLOW).toBe('\x1b[0;1;33m');
    expect(SALT_COLORS.ENDC).toBe('\x1b[0;0m');
    expect(Object.keys(SALT_COLORS)).toHaveLength(18);
  });

  it('empties every colour when colour is off, or uses one colour for all', () => {
    expect(Object.values(getColors(false)).every((c) => c === '')).toBe(true);
    const red = getColors('RED');
    expect(red.GREEN).toBe(SALT_COLORS.RED);
    expect(red.ENDC).toBe(SALT_COLORS.ENDC);
  });

  it('decides colour as salt.output.get_printout does', () => {
    expect(resolveColor({ isTTY: true })).toBe(true);
    expect(resolveColor({ isTTY: false })).toBe(false);
    expect(resolveColor({ isTTY: false, forceColor: true, noColor: true })).toBe(true);
    expect(resolveColor({ isTTY: true, noColor: true })).toBe(false);
    expect(resolveColor({ isTTY: true, platform: 'win32' })).toBe(false);
    expect(resolveColor({ isTTY: false, configColor: true })).toBe(true);
    expect(resolveColor({ isTTY: true, configColor: false })).toBe(false);
  });
});
