import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beaconCtx } from '../../test/support/beacon-ctx.js';
import status, { utcIsoformat } from './status.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-status-beacon-'));

describe('status beacon', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("tags the event with Python's utcnow().isoformat()", () => {
    expect(utcIsoformat(Date.UTC(2026, 10, 29, 13, 45, 9) + 763.675)).toBe('2026-11-29T13:45:09.763675');
    expect(utcIsoformat(Date.UTC(2026, 10, 29, 13, 45, 9))).toBe('2026-11-29T13:45:09');
  });

  it('returns the chosen keys, list/str indexes and "all"; a missing key is reported in the event', async () => {
    const ctx = beaconCtx(join(dir, 'salt'));
    const [ev] = await status.beacon(ctx, {
      uptime: ['users', 'seconds'],
      loadavg: ['1-min', 'nope'],
      time: [0],
      nproc: 'all',
    });
    expect(ev?.tag).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$/);
    const data = ev?.data as Record<string, Record<string, unknown>>;
    expect(Object.keys(data)).toEqual(['uptime', 'loadavg', 'time', 'nproc']);
    expect(Object.keys(data.uptime!)).toEqual(['users', 'seconds']);
    expect(data.loadavg).toBe("Status beacon is incorrectly configured: 'nope'");
    expect(data.time).toEqual({ 0: expect.stringMatching(/^[A-Z]$/) });
    expect(typeof data.nproc).toBe('number');
  }, 240_000);

  it('with no functions configured reports the five defaults; an unknown function fails the run', async () => {
    const ctx = beaconCtx(join(dir, 'salt'));
    const [ev] = await status.beacon(ctx, {});
    expect(Object.keys(ev?.data as object)).toEqual(['loadavg', 'cpustats', 'meminfo', 'vmstats', 'time']);
    await expect(status.beacon(ctx, { nosuchfun: ['all'] })).rejects.toThrow("'status.nosuchfun'");
  }, 240_000);
});
