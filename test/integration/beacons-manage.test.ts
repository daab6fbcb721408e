import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { collectMasterEvents, type MasterEvents } from '../support/master-events.js';

describe('beacons managed at run time (beacons.add/delete/disable/save)', () => {
  const c = new Cluster();
  let events: MasterEvents;

  beforeAll(async () => {
    await c.startMaster();
    events = await collectMasterEvents(c, ['salt/beacon/']);
    const dir = join(c.root, 'beacons');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'ticker.mjs'),
      `export default {
  name: 'ticker',
  validate: (config) => (typeof config.word === 'string' ? true : 'word must be a string'),
  beacon: (ctx, config) => [{ tag: 'tick', word: config.word }],
};
`,
    );
    // no beacons configured: the minion starts none, and gets them at run time
    await c.startMinion('m1', { beacons_dirs: [dir] });
  }, 60_000);
  afterAll(async () => {
    events.close();
    await c.stop();
  });

  const ticks = () => events.seen.filter((e) => e.tag === 'salt/beacon/m1/ticker/tick');
  async function until(pred: () => boolean, ms = 10_000): Promise<boolean> {
    for (let t = 0; t < ms; t += 25) {
      if (pred()) return true;
      await new Promise((r) => setTimeout(r, 25));
    }
    return pred();
  }
  const call = async (...args: string[]) => (await c.saltJson(['m1', ...args])).data.m1;

  it('refuses an invalid config with Salt answer and adds nothing', async () => {
    expect(await call('beacons.add', 'ticker', "[{'word': 3}]")).toEqual({
      comment: 'Beacon ticker configuration invalid, not adding.\nword must be a string',
      result: false,
    });
    expect(await call('beacons.list', 'return_yaml=False')).toEqual({});
  });

  it('test=True says what it would do and adds nothing', async () => {
    expect(await call('beacons.add', 'ticker', "[{'word': 'hi'}]", 'test=True')).toEqual({
      comment: 'Beacon: ticker would be added.',
      result: true,
    });
    expect(await call('beacons.list', 'return_yaml=False')).toEqual({});
  });

  it('an added beacon fires on the master bus; a disabled or deleted one stops', async () => {
    expect(await call('beacons.add', 'ticker', "[{'word': 'hi'}, {'interval': 0.2}]")).toEqual({
      comment: 'Added beacon: ticker.',
      result: true,
    });
    expect(await until(() => ticks().length >= 2)).toBe(true);
    expect(ticks()[0]?.data).toMatchObject({ word: 'hi', id: 'm1' });
    expect(await call('beacons.list', 'return_yaml=False')).toEqual({
      ticker: [{ word: 'hi' }, { interval: 0.2 }],
    });

    expect(await call('beacons.disable_beacon', 'ticker')).toEqual({
      comment: 'Disabled beacon ticker on minion.',
      result: true,
    });
    await new Promise((r) => setTimeout(r, 400));
    let n = ticks().length;
    await new Promise((r) => setTimeout(r, 800));
    expect(ticks().length).toBe(n);
    expect(await call('beacons.enable_beacon', 'ticker')).toEqual({
      comment: 'Enabled beacon ticker on minion.',
      result: true,
    });
    expect(await until(() => ticks().length > n)).toBe(true);

    expect(await call('beacons.delete', 'ticker')).toEqual({
      comment: 'Deleted beacon: ticker.',
      result: true,
    });
    await new Promise((r) => setTimeout(r, 400));
    n = ticks().length;
    await new Promise((r) => setTimeout(r, 800));
    expect(ticks().length).toBe(n);
    expect(await call('beacons.list', 'return_yaml=False')).toEqual({});
  });

  it('save writes minion.d/beacons.conf beside the config file', async () => {
    await call('beacons.add', 'ticker', "[{'word': 'saved'}, {'interval': 5}]");
    const file = join(c.root, 'minions', 'm1', 'etc', 'minion.d', 'beacons.conf');
    mkdirSync(join(c.root, 'minions', 'm1', 'etc', 'minion.d'), { recursive: true });
    expect(await call('beacons.save')).toEqual({ comment: `Beacons saved to ${file}.`, result: true });
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('beacons:\n  ticker:\n  - word: saved\n  - interval: 5\n');
    expect(await call('beacons.reset')).toEqual({ comment: 'Beacon configuration reset.', result: true });
    expect(await call('beacons.list', 'return_yaml=False')).toEqual({});
  });

  it('the beacon state adds, keeps, disables and removes a beacon (Salt 3006.18 answers the same)', async () => {
    const single = async (fun: string, ...args: string[]) => {
      const ret = (await call('state.single', fun, 'name=ticker', ...args)) as Record<
        string,
        { comment: string }
      >;
      return Object.values(ret)[0]?.comment;
    };
    expect(await single('beacon.present', 'word=st', 'interval=1.0', 'test=True')).toBe(
      'Beacon: ticker would be added.',
    );
    expect(await single('beacon.present', 'word=st', 'interval=1.0')).toBe('Adding ticker to beacons');
    expect(await until(() => ticks().some((e) => e.data.word === 'st'))).toBe(true);
    // the same settings, a YAML float among them: nothing to do
    expect(await single('beacon.present', 'word=st', 'interval=1.0', 'test=True')).toBe(
      'Job ticker in correct state',
    );
    // new settings: Salt's beacons.modify diff of `key:value` lines (Python's str of each value),
    // the state's comment
    const modified = (await call(
      'state.single',
      'beacon.present',
      'name=ticker',
      'word=st2',
      'interval=2.0',
    )) as Record<string, { comment: string; changes: unknown }>;
    expect(Object.values(modified)[0]).toMatchObject({
      comment: 'Modifying ticker in beacons',
      changes: { diff: '--- \n+++ \n@@ -1,2 +1,2 @@\n-word:st\n-interval:1.0\n+word:st2\n+interval:2.0\n' },
    });
    expect(await single('beacon.disabled')).toBe('Disabled beacon ticker.');
    expect(await single('beacon.enabled')).toBe('Enabled ticker from beacons');
    expect(await single('beacon.absent')).toBe('Removed ticker from beacons');
    expect(await single('beacon.absent')).toBe('ticker not configured in beacons');
    expect(await single('beacon.disabled')).toBe('Job ticker is not configured.');
  });
});
