import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fileMod from '../modules/file.js';
import { builtinStateFunctions } from '../test/support/builtin-states.js';
import { moduleCtx } from './_test-ctx.js';

// Expectations are what Salt 3006.18 returned for the same SLS (salt-call --local state.apply,
// /tmp/more16/harness.sh, case ret4), with the temp dir in place of Salt's.

let dir: string;
const states = () => builtinStateFunctions(moduleCtx([fileMod]));
const NAMES = [
  'bk-2026-11-28_21',
  'bk-2026-11-28_09',
  'bk-2026-11-27_23',
  'bk-2026-11-27_01',
  'bk-2026-11-20_05',
  'bk-2026-10-02_00',
  'bk-2026-10-31_00',
  'bk-2025-06-01_12',
  'bk-2024-01-01_00',
  'junk',
];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-t-retention-'));
  for (const n of NAMES) await writeFile(join(dir, n), '');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const RETAIN = { most_recent: 2, first_of_day: 3, first_of_month: 2, first_of_week: 1 };
const CHANGES = {
  retained: [
    'bk-2026-11-28_21',
    'bk-2026-11-28_09',
    'bk-2026-11-27_01',
    'bk-2026-11-20_05',
    'bk-2026-10-02_00',
  ],
  deleted: ['bk-2026-11-27_23', 'bk-2026-10-31_00', 'bk-2025-06-01_12', 'bk-2024-01-01_00'],
  ignored: ['junk', '..', '.'],
};

describe('file.retention_schedule', () => {
  it('keeps what the rules name by the dates in the names, and removes the rest unless testing', async () => {
    const s = states();
    const args = { name: dir, retain: RETAIN, strptime_format: 'bk-%Y-%m-%d_%H' };
    expect(await s.call('file.retention_schedule', args, { test: true })).toEqual({
      name: dir,
      changes: CHANGES,
      result: null,
      comment: `4 backups would have been removed from ${dir}.\n`,
    });
    expect((await readdir(dir)).length).toBe(NAMES.length);
    expect(await s.call('file.retention_schedule', args, { test: false })).toEqual({
      name: dir,
      changes: CHANGES,
      result: true,
      comment: `4 backups were removed from ${dir}.\n`,
    });
    expect((await readdir(dir)).sort()).toEqual([...CHANGES.retained, 'junk'].sort());
    const again = await s.call('file.retention_schedule', args, { test: true });
    expect([again.changes, again.result, again.comment]).toEqual([
      {},
      true,
      `0 backups would have been removed from ${dir}.\n`,
    ]);
  });

  it('dates files by mtime without a format, keeps all with "all", and needs a folder', async () => {
    const s = states();
    const sub = join(dir, 'm');
    await mkdir(sub);
    for (let i = 0; i < 4; i += 1) {
      await writeFile(join(sub, `f${i}`), '');
      const t = new Date(2025, 10, 28, 3 + i * 7, 20).getTime() / 1000; // local time, as Salt reads mtimes
      await utimes(join(sub, `f${i}`), t, t);
    }
    const r = await s.call(
      'file.retention_schedule',
      { name: sub, retain: { most_recent: 1, first_of_day: 2 } },
      { test: false },
    );
    expect(r.changes).toEqual({ retained: ['f3', 'f0'], deleted: ['f2', 'f1'], ignored: ['..', '.'] });
    const all = await s.call(
      'file.retention_schedule',
      { name: sub, retain: { most_recent: 'all' } },
      { test: false },
    );
    expect([all.changes, all.comment]).toEqual([{}, `0 backups were removed from ${sub}.\n`]);
    expect(
      await s.call(
        'file.retention_schedule',
        { name: join(dir, 'nope'), retain: { most_recent: 1 } },
        { test: false },
      ),
    ).toEqual({
      name: join(dir, 'nope'),
      changes: {},
      result: false,
      comment: 'Name provided to file.retention must be a directory',
    });
  });
});
