import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type BeaconManager, startBeaconManager } from './beacons-manage.js';

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {} } as never;

describe('startBeaconManager', () => {
  let dir = '';
  let mgr: BeaconManager | undefined;
  afterEach(() => {
    mgr?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function start(beacons: Record<string, unknown>, loads: unknown[]) {
    dir = mkdtempSync(join(tmpdir(), 'beacons-manage-'));
    writeFileSync(
      join(dir, 'echo.mjs'),
      `export default { name: 'echo', validate: (c) => (c.n > 0 ? true : 'n must be positive'), beacon: (ctx, c) => [{ n: c.n }] };\n`,
    );
    mgr = await startBeaconManager({
      id: 'u1',
      beacons,
      opts: {},
      dirs: [dir],
      packages: [],
      loopInterval: 60,
      grains: () => ({}),
      send: async (load) => loads.push(load),
      call: async (fun) => Promise.reject(new Error(`${fun}: no functions in this test`)),
      log: quiet,
    });
    return mgr;
  }

  it("validates with the module's validate, and says when a module has none", async () => {
    const m = await start({}, []);
    expect(await m.manage({ func: 'validate_beacon', name: 'echo', beacon_data: [{ n: 0 }] })).toEqual({
      complete: true,
      valid: false,
      vcomment: 'n must be positive',
    });
    expect(
      await m.manage({
        func: 'validate_beacon',
        name: 'x',
        beacon_data: [{ beacon_module: 'echo' }, { n: 2 }],
      }),
    ).toMatchObject({ valid: true });
  });

  it('add starts the beacon at once; delete, disable and reset answer the new mapping', async () => {
    const loads: unknown[] = [];
    const m = await start({}, loads);
    expect(await m.manage({ func: 'add', name: 'echo', beacon_data: [{ n: 1 }] })).toEqual({
      complete: true,
      comment: 'Added new beacon item: echo',
      beacons: { echo: [{ n: 1 }] },
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(loads).toHaveLength(1);
    expect(await m.manage({ func: 'add', name: 'echo', beacon_data: [{ n: 2 }] })).toMatchObject({
      comment: 'Updating settings for beacon item: echo',
    });
    expect(await m.manage({ func: 'disable_beacon', name: 'echo' })).toMatchObject({
      beacons: { echo: [{ n: 2 }, { enabled: false }] },
    });
    expect(await m.manage({ func: 'disable' })).toMatchObject({ beacons: { enabled: false } });
    expect(await m.manage({ func: 'delete', name: 'nope' })).toMatchObject({
      comment: 'Beacon item nope not found.',
    });
    expect(await m.manage({ func: 'delete', name: 'echo' })).toMatchObject({
      comment: 'Deleting beacon item: echo',
      beacons: { enabled: false },
    });
    expect(await m.manage({ func: 'reset' })).toEqual({
      complete: true,
      comment: 'Beacons have been reset',
      beacons: {},
    });
    await expect(m.manage({ func: 'bogus' })).rejects.toThrow('unknown manage_beacons function: bogus');
  });
});
