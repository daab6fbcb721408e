/**
 * Whole floats in a job (`schedule.add job seconds=1.0 splay=2.0`): the schedule module's call
 * reaches the scheduler with them kept (SaltFloat), so `schedule.list` shows `1.0` as Salt's
 * does; the scheduler's checks and timing read them as numbers, and the saved file and the
 * YAML listing write them as floats.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { float64 } from '../../kernel/util.js';
import { memoryLogger } from '../../modules/_fake-ctx.js';
import { buildScheduleItem } from '../../modules/_schedule-build.js';
import { pyYamlDump } from '../../modules/_yaml-dump.js';
import { readScheduleFile, readScheduleFloats, withSavedFloats, writeScheduleFile } from './schedule-file.js';
import { manageSchedule } from './schedule-manage.js';
import { Scheduler } from './scheduler.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-sched-float-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('whole floats in scheduled jobs', () => {
  it('are accepted, run on time with their splay, and stay floats in the listing', async () => {
    const clock = { wall: Date.UTC(2026, 10, 29, 10), mono: 1_000_000 };
    const runs: string[] = [];
    const s = new Scheduler({
      schedule: {},
      loopInterval: 1,
      log: memoryLogger(),
      clock: { wall: () => clock.wall, mono: () => clock.mono },
      random: () => 0.99,
      run: (r) => {
        runs.push(r.name);
        return Promise.resolve();
      },
    });
    const add = await manageSchedule(s, {
      func: 'add',
      schedule: { fj: { function: 'test.ping', seconds: float64(2), splay: float64(1) } },
    });
    expect(add.errors).toBeUndefined();
    expect(add.schedule?.fj).toMatchObject({ seconds: float64(2) });
    s.tick();
    for (let t = 0; t < 6000; t += 100) {
      clock.wall += 100;
      clock.mono += 100;
      s.tick();
      await new Promise((r) => setImmediate(r));
    }
    // every 2 seconds, each held back 1 second by the splay
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(3);
    const bad = await manageSchedule(s, {
      func: 'add',
      schedule: { neg: { function: 'test.ping', seconds: float64(-1) } },
    });
    expect(bad.errors).toEqual([
      'Invalid seconds -1.0: an interval is a number of 0 or more. Ignoring job neg.',
    ]);
  });

  it("are written as floats, in the saved file and in the YAML listing, as Salt's PyYAML does", async () => {
    const file = join(dir, 'minion.d', '_schedule.conf');
    await writeScheduleFile(file, {
      fj: { function: 'test.ping', seconds: float64(1), minutes: float64(1.5), hours: 2 },
    });
    expect(readFileSync(file, 'utf8')).toBe(
      'schedule:\n  fj:\n    function: test.ping\n    seconds: 1.0\n    minutes: 1.5\n    hours: 2\n',
    );
    // read back (schedule.list offline=True) as Salt reads it: still a float
    expect(await readScheduleFile(file)).toEqual({
      fj: { function: 'test.ping', seconds: float64(1), minutes: 1.5, hours: 2 },
    });
    expect(pyYamlDump({ schedule: { fj: { seconds: float64(1), days: 3 } } })).toBe(
      'schedule:\n  fj:\n    days: 3\n    seconds: 1.0\n',
    );
  });

  it("schedule.add's job keeps a whole-float splay a number (not a start/end mapping)", () => {
    const built = buildScheduleItem(
      'fj',
      { function: 'test.ping', seconds: float64(1), splay: float64(2) },
      () => true,
    );
    expect(built).toMatchObject({ job: { seconds: float64(1), splay: float64(2) } });
  });

  it("a restarted minion's configured jobs get the saved file's whole floats back, only where they agree", () => {
    const saved = {
      a: { seconds: float64(1), splay: { start: float64(2), end: 5 } },
      b: { minutes: float64(3) },
    };
    const loaded = { a: { seconds: 1, splay: { start: 2, end: 5 } }, b: { minutes: 4 }, c: { seconds: 2 } };
    expect(withSavedFloats(loaded, saved)).toEqual({
      a: { seconds: float64(1), splay: { start: float64(2), end: 5 } },
      b: { minutes: 4 },
      c: { seconds: 2 },
    });
  });

  it('a starting minion parses the saved file only when it holds a whole float', async () => {
    const plain = join(dir, 'plain.conf');
    writeFileSync(plain, 'schedule:\n  mine:\n    function: mine.update\n    minutes: 60\n');
    expect(await readScheduleFloats(plain)).toEqual({});
    const floats = join(dir, 'floats.conf');
    writeFileSync(floats, 'schedule:\n  job1:\n    function: test.ping\n    seconds: 1.0\n    splay: 2.5\n');
    expect(await readScheduleFloats(floats)).toEqual({
      job1: { function: 'test.ping', seconds: float64(1), splay: 2.5 },
    });
    expect(await readScheduleFloats(join(dir, 'missing.conf'))).toEqual({});
  });
});
