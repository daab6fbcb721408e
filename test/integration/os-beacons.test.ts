// The beacons that read the operating system, on a real minion, their events seen by its master
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { Cluster } from '../../tools/local-cluster.js';
import { collectMasterEvents, type MasterEvents } from '../support/master-events.js';

describe('OS beacons fire to the master', () => {
  const c = new Cluster();
  let events: MasterEvents;
  let watched: string;
  let logFile: string;

  beforeAll(async () => {
    await c.startMaster();
    events = await collectMasterEvents(c, ['salt/beacon/']);
    watched = join(c.root, 'watched');
    mkdirSync(watched, { recursive: true });
    logFile = join(c.root, 'app.log');
    writeFileSync(logFile, 'start\n');
    await c.startMinion('m1', {
      beacons: {
        memusage: [{ percent: '0%' }, { interval: 0.5 }],
        diskusage: [{ '/': '0%' }, { interval: 0.5 }],
        ps: [{ processes: { no_such_process_bo21: 'stopped' } }, { interval: 0.5 }],
        inotify: [{ files: { [watched]: { mask: ['create'] } } }, { interval: 0.5 }],
        log: [{ file: logFile }, { tags: { failure: { regex: 'FAIL.*' } } }, { interval: 0.5 }],
        swapusage: [{ interval: 0.5 }],
        journald: [{ interval: 0.5 }],
      },
    });
  }, 120_000);
  afterAll(async () => {
    events.close();
    await c.stop();
  });

  async function waitFor(pred: (e: SaltEvent) => boolean): Promise<SaltEvent | undefined> {
    for (let t = 0; t < 60_000; t += 100) {
      const ev = events.seen.find(pred);
      if (ev) return ev;
      await new Promise((r) => setTimeout(r, 100));
    }
    return undefined;
  }

  it('usage and process beacons fire their data', async () => {
    const mem = await waitFor((e) => e.tag === 'salt/beacon/m1/memusage/');
    expect(typeof mem?.data.memusage).toBe('number');
    const disk = await waitFor((e) => e.tag === 'salt/beacon/m1/diskusage/');
    expect(disk?.data).toMatchObject({ mount: '/', id: 'm1' });
    const ps = await waitFor((e) => e.tag === 'salt/beacon/m1/ps/');
    expect(ps?.data).toMatchObject({ no_such_process_bo21: 'Stopped' });
  }, 120_000);

  it('inotify and log fire what changed after their first run, tagged by path and tag', async () => {
    // the first runs have happened once any beacon event came
    await waitFor((e) => e.tag === 'salt/beacon/m1/memusage/');
    await new Promise((r) => setTimeout(r, 2000));
    writeFileSync(join(watched, 'new-file'), '');
    appendFileSync(logFile, 'FAIL: disk on fire\n');
    const ino = await waitFor((e) => e.tag === `salt/beacon/m1/inotify/${watched}`);
    expect(ino?.data).toMatchObject({ path: join(watched, 'new-file'), change: 'IN_CREATE' });
    const log = await waitFor((e) => e.tag === 'salt/beacon/m1/log/failure');
    expect(log?.data).toMatchObject({ raw: 'FAIL: disk on fire', match: 'yes', error: '' });
  }, 120_000);

  it('a bad config and the refused journald are logged, not fired', async () => {
    const out = () => c.minions.get('m1')!.out;
    for (let t = 0; t < 30_000 && !out().includes('journald'); t += 200)
      await new Promise((r) => setTimeout(r, 200));
    expect(out()).toContain(
      'Beacon swapusage configuration invalid, not adding. Configuration for swapusage beacon requires percent.',
    );
    expect(out()).toContain('Beacon journald configuration invalid, not adding. systemd library is missing.');
    expect(events.seen.some((e) => e.tag.startsWith('salt/beacon/m1/journald'))).toBe(false);
  }, 120_000);
});
