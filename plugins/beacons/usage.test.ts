// memusage, swapusage and diskusage against what /proc/meminfo and df say
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { beaconCtx } from './_test-ctx.js';
import diskusage from './diskusage.js';
import memusage from './memusage.js';
import swapusage from './swapusage.js';

function kb(field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync('/proc/meminfo', 'utf8'));
  return Number(m?.[1] ?? 0);
}

describe('memusage and swapusage', () => {
  it('refuse a config without percent, with Salt messages', () => {
    expect(memusage.validate?.({})).toBe('Configuration for memusage beacon requires percent.');
    expect(swapusage.validate?.({ other: 1 })).toBe('Configuration for swapusage beacon requires percent.');
    expect(memusage.validate?.({ percent: '5%' })).toBe(true);
  });

  it('memusage fires the percent in use (total less available) at or above the threshold', async () => {
    const [ev] = (await memusage.beacon(beaconCtx(), { percent: '0%' })) as Array<{ memusage: number }>;
    const expected = ((kb('MemTotal') - kb('MemAvailable')) / kb('MemTotal')) * 100;
    expect(Math.abs(ev!.memusage - expected)).toBeLessThan(2);
    expect(await memusage.beacon(beaconCtx(), { percent: 100.1 })).toEqual([]);
  });

  it('swapusage fires 0 without swap, its percent with it', async () => {
    const total = kb('SwapTotal');
    const [ev] = (await swapusage.beacon(beaconCtx(), { percent: 0 })) as Array<{ swapusage: number }>;
    if (total === 0) expect(ev).toEqual({ swapusage: 0 });
    else expect(Math.abs(ev!.swapusage - ((total - kb('SwapFree')) / total) * 100)).toBeLessThan(2);
  });

  it('a threshold that is not a number fails as Python float() does', () => {
    expect(() => memusage.beacon(beaconCtx(), { percent: 'lots%' })).toThrow(
      "could not convert string to float: 'lots'",
    );
  });
});

describe('diskusage', () => {
  it('fires the root file system with the percent df shows', async () => {
    const ret = (await diskusage.beacon(beaconCtx(), { '/': '0%' })) as Array<{
      diskusage: number;
      mount: string;
    }>;
    expect(ret.map((e) => e.mount)).toEqual(['/']);
    const df = Number(
      execFileSync('df', ['--output=pcent', '/'], { encoding: 'utf8' }).split('\n')[1]?.replace('%', ''),
    );
    // df rounds up to a whole percent
    expect(Math.ceil(ret[0]!.diskusage)).toBeGreaterThanOrEqual(df - 1);
    expect(Math.ceil(ret[0]!.diskusage)).toBeLessThanOrEqual(df + 1);
    expect(await diskusage.beacon(beaconCtx(), { '/': '100.1%' })).toEqual([]);
  });

  it('matches mount points by regular expression from their start', async () => {
    const ret = (await diskusage.beacon(beaconCtx(), { '^/pr.c': 0 })) as Array<{ mount: string }>;
    expect(ret.map((e) => e.mount)).toContain('/proc');
    expect(ret.every((e) => /^\/pr.c$/.test(e.mount))).toBe(true);
  });
});
