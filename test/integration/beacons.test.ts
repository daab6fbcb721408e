import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { Cluster } from '../../tools/local-cluster.js';
import { collectMasterEvents, type MasterEvents } from '../support/master-events.js';

describe('minion beacons fire to the master', () => {
  const c = new Cluster();
  let events: MasterEvents;

  beforeAll(async () => {
    await c.startMaster();
    events = await collectMasterEvents(c, ['salt/beacon/']);
    const dir = join(c.root, 'beacons');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'counter.mjs'),
      `export default {
  name: 'counter',
  validate: (config) => (typeof config.every === 'number' ? true : 'every must be a number'),
  beacon(ctx, config) {
    const n = (ctx.state.get('n') ?? 0) + 1;
    ctx.state.set('n', n);
    if (n === 2) throw new Error('second run fails');
    return n % config.every === 0 ? [{ n, tag: 'tick', kernel: ctx.grains.kernel }] : [];
  },
};
`,
    );
    // a beacon asking execution functions (Salt's __salt__): one in a job process, one failing
    writeFileSync(
      join(dir, 'asker.mjs'),
      `export default {
  name: 'asker',
  async beacon(ctx) {
    if (ctx.state.get('done')) return [];
    ctx.state.set('done', true);
    const out = await ctx.call('cmd.run', ['echo beacon-$((6 * 7))'], { python_shell: true });
    const failed = await ctx.call('no_such.fn').then(() => 'no error', (err) => err.message);
    const echoed = await ctx.call('test.arg', ['a'], { k: 1 });
    return [{ out, failed, echoed, tag: 'asked' }];
  },
};
`,
    );
    // a beacon with a close (Salt's inotify/watchdog have one): it notes each close in a file
    writeFileSync(
      join(dir, 'closer.mjs'),
      `import { appendFileSync } from 'node:fs';
export default {
  name: 'closer',
  beacon(ctx, config) {
    const n = (ctx.state.get('n') ?? 0) + 1;
    ctx.state.set('n', n);
    ctx.state.set('label', config.label);
    return [{ tag: 'run', n }];
  },
  close(state) {
    appendFileSync(${JSON.stringify(join(c.root, 'closed.log'))}, state.get('label') + ' closed after ' + state.get('n') + '\\n');
    state.delete('n');
  },
};
`,
    );
    await c.startMinion('m1', {
      beacons_dirs: [dir],
      beacons: {
        load: [{ averages: { '1m': [-2, -1] } }, { interval: 0.2 }],
        counter: [{ every: 3 }, { interval: 0.1 }],
        broken_config: [{ beacon_module: 'counter' }, { every: 'x' }],
        nowhere: [{ interval: 1 }],
        asker: [{ interval: 0.5 }],
        once: [{ beacon_module: 'closer' }, { label: 'once' }, { run_once: true }, { interval: 0.1 }],
        paused: [
          { beacon_module: 'closer' },
          { label: 'paused' },
          { disable_during_state_run: true },
          { interval: 0.2 },
        ],
      },
    });
  });
  afterAll(async () => {
    events.close();
    await c.stop();
  });

  async function waitFor(pred: (e: SaltEvent) => boolean): Promise<SaltEvent | undefined> {
    for (let t = 0; t < 10_000; t += 25) {
      const ev = events.seen.find(pred);
      if (ev) return ev;
      await new Promise((r) => setTimeout(r, 25));
    }
    return undefined;
  }

  it('the built-in load beacon fires the averages when they leave the range', async () => {
    const ev = await waitFor((e) => e.tag === 'salt/beacon/m1/load/');
    expect(ev?.data).toMatchObject({ id: 'm1' });
    expect(typeof ev?.data['1m']).toBe('number');
  });

  it('a custom beacon keeps state between runs, appends its tag, and gets grains', async () => {
    const ev = await waitFor((e) => e.tag === 'salt/beacon/m1/counter/tick');
    expect(ev?.data).toEqual(expect.objectContaining({ n: 3, kernel: 'Linux', id: 'm1' }));
  });

  it('a beacon runs execution functions through ctx.call; a failing one rejects with its error', async () => {
    const ev = await waitFor((e) => e.tag === 'salt/beacon/m1/asker/asked');
    expect(ev?.data).toMatchObject({ out: 'beacon-42', failed: "'no_such.fn' is not available.", id: 'm1' });
    // a direct call, as Salt's __salt__: no __pub_* keywords
    expect(ev?.data.echoed).toEqual({ args: ['a'], kwargs: { k: 1 } });
  });

  it('run_once: one run, then the beacon is closed and disabled in the running mapping', async () => {
    expect(await waitFor((e) => e.tag === 'salt/beacon/m1/once/run')).toBeDefined();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(events.seen.filter((e) => e.tag === 'salt/beacon/m1/once/run')).toHaveLength(1);
    expect(readFileSync(join(c.root, 'closed.log'), 'utf8')).toContain('once closed after 1\n');
    const listed = (await c.saltJson(['m1', 'beacons.list', 'return_yaml=False'])).data as Record<
      string,
      Record<string, unknown[]>
    >;
    expect(listed.m1?.once).toContainEqual({ enabled: false });
    expect(listed.m1?.paused).not.toContainEqual({ enabled: false });
  });

  it('disable_during_state_run: closed while a state runs, started again after it', async () => {
    const runs = () => events.seen.filter((e) => e.tag === 'salt/beacon/m1/paused/run');
    await waitFor((e) => e.tag === 'salt/beacon/m1/paused/run' && e.data.n === 3);
    const state = await c.saltJson(['m1', 'state.single', 'cmd.run', 'name=sleep 3', '-t', '60']);
    expect(JSON.stringify(state.data)).toContain('"result":true');
    expect(readFileSync(join(c.root, 'closed.log'), 'utf8')).toMatch(/^paused closed after \d+$/m);
    // it runs again after the state, its count started again (its close dropped the state)
    const before = runs().length;
    await waitFor((e) => e.tag === 'salt/beacon/m1/paused/run' && runs().indexOf(e) >= before);
    expect(runs().length).toBeGreaterThan(before);
    expect(
      runs()
        .slice(1)
        .some((e) => e.data.n === 1),
    ).toBe(true);
  }, 120_000);

  it('a throwing run, a bad config and a missing beacon are logged; the others go on', async () => {
    const out = () => c.minions.get('m1')!.out;
    await waitFor(() => out().includes('nowhere'));
    expect(out()).toContain('Unable to start counter beacon, second run fails');
    expect(out()).toContain('Beacon broken_config configuration invalid, not adding. every must be a number');
    expect(out()).toContain('Unable to process beacon nowhere: no beacon module nowhere');
    expect((await c.saltJson(['m1', 'test.ping'])).data).toEqual({ m1: true });
  });
});
