/**
 * The `beacon:` state argument (Salt's `call_beacons`): after the run, each chunk with a `beacon`
 * key runs its module's `mod_beacon` as `beacon_<id>`. The expected returns are Salt 3006.18's
 * for the same SLS (`state.apply` against a live salt-minion; /tmp/beacon20/cmp.mjs).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LowChunk } from '../types.js';
import { harness } from './harness.test-d.js';
import { runChunks } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-beacon-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let order = 20000;
function chunk(id: string, fun: string, extra: Record<string, unknown> = {}): LowChunk {
  const [state = 'test', f = 'nop'] = fun.split('.');
  order += 1;
  return { state, name: id, __sls__: 'bcn', __env__: 'base', __id__: id, order, fun: f, ...extra };
}

/** The run's entries without their timings. */
function untimed(ret: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(ret).map(([tag, v]) => {
      const { start_time: _s, duration: _d, ...rest } = v as Record<string, unknown>;
      return [tag, rest];
    }),
  );
}

describe('the beacon state argument', () => {
  it('runs mod_beacon after the states: not added when beacon is false, refused for an unsupported function', async () => {
    const f2 = join(dir, 'f2');
    const ret = untimed(
      await runChunks(
        [
          chunk('bno', 'file.managed', { name: f2, contents: 'x', beacon: false }),
          chunk('babsent', 'file.absent', { name: join(dir, 'nothing'), beacon: true }),
        ],
        harness(),
      ),
    );
    expect(readFileSync(f2, 'utf8')).toBe('x\n');
    expect(Object.keys(ret)).toEqual([
      `file_|-bno_|-${f2}_|-managed`,
      `file_|-babsent_|-${join(dir, 'nothing')}_|-absent`,
      `file_|-beacon_bno_|-${f2}_|-mod_beacon`,
      `file_|-beacon_babsent_|-${join(dir, 'nothing')}_|-mod_beacon`,
    ]);
    expect(ret[`file_|-beacon_bno_|-${f2}_|-mod_beacon`]).toEqual({
      name: f2,
      changes: {},
      comment: 'Not adding beacon.',
      result: true,
      __sls__: 'bcn',
      __run_num__: 2,
      __id__: 'beacon_bno',
    });
    expect(ret[`file_|-beacon_babsent_|-${join(dir, 'nothing')}_|-mod_beacon`]).toMatchObject({
      comment: 'file.absent does not work with the beacon state function',
      result: false,
      __run_num__: 3,
    });
  });

  it("pkg's and service's unsupported functions, and a module without mod_beacon, as Salt answers them", async () => {
    const ret = untimed(
      await runChunks(
        [
          chunk('bpurged', 'pkg.purged', { name: 'tsalt-no-such-pkg-b20', beacon: true }),
          chunk('bsvc', 'service.disabled', { name: 'tsalt-no-such-svc-b20', beacon: true }),
          chunk('btest', 'test.succeed_without_changes', { beacon: true }),
        ],
        harness({ test: true }),
      ),
    );
    expect(ret['pkg_|-beacon_bpurged_|-tsalt-no-such-pkg-b20_|-mod_beacon']).toMatchObject({
      comment: 'pkg.purged does not work with the mod_beacon state function',
      result: false,
    });
    expect(ret['service_|-beacon_bsvc_|-tsalt-no-such-svc-b20_|-mod_beacon']).toMatchObject({
      comment: 'service.disabled does not work with the beacon state function',
      result: false,
    });
    expect(ret['test_|-beacon_btest_|-btest_|-mod_beacon']).toEqual({
      result: false,
      name: 'btest',
      changes: {},
      comment:
        "State 'test.mod_beacon' was not found in SLS 'bcn'\nReason: 'test.mod_beacon' is not available.\n",
      __run_num__: 5,
    });
  });

  it('the mod_beacon copies keep their requisites, looked for among the copies (as in Salt)', async () => {
    const [f3, f4] = [join(dir, 'f3'), join(dir, 'f4')];
    const ret = untimed(
      await runChunks(
        [
          chunk('breq1', 'file.managed', { name: f3, contents: 'y', beacon: false }),
          chunk('breq2', 'file.managed', {
            name: f4,
            contents: 'z',
            beacon: true,
            require: [{ file: 'breq1' }],
          }),
        ],
        harness(),
      ),
    );
    expect(existsSync(f4)).toBe(true);
    expect(ret[`file_|-beacon_breq2_|-${f4}_|-mod_beacon`]).toMatchObject({
      result: false,
      changes: {},
      comment:
        'The following requisites were not found:\n                   require:\n                       file: breq1\n',
      __id__: 'beacon_breq2',
      name: f4,
    });
  });

  it('a supported function with beacon: True asks beacon.present for the inotify beacon (no minion runs here to validate it)', async () => {
    const f1 = join(dir, 'f1');
    const ret = untimed(
      await runChunks(
        [chunk('bfile', 'file.managed', { name: f1, contents: 'hello', beacon: true })],
        harness(),
      ),
    );
    expect(ret[`file_|-beacon_bfile_|-${f1}_|-mod_beacon`]).toEqual({
      name: `beacon_inotify_${f1}`,
      result: false,
      changes: {},
      // Salt's beacon.present fails here too, with a TypeError (its beacons.list answers None)
      comment: 'Event module not available. Beacon validation failed.',
      __sls__: 'bcn',
      __run_num__: 1,
      __id__: 'beacon_bfile',
    });
  });
});
