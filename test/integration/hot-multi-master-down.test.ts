/**
 * Hot multi-master when a master dies (minion/hot-masters.ts, minion/master-switch.ts): a tsalt
 * minion with `master: [A, B]` on two independent masters (each its own pillar), then `kill -9`
 * of A. What goes to "the master" (pillar, mine.get) moves to B, what goes to every master
 * (event.fire_master, mine.send) reaches B, and once A is back those requests go to A again.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import type { Cluster, Daemon } from '../../tools/local-cluster.js';
import { A, B, twoMasters, until } from '../support/cluster-pair.js';

/** A pillar tree whose one value says which master compiled it. */
function pillarTree(root: string, who: string): string {
  const dir = join(root, who);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'top.sls'), "base:\n  '*':\n    - who\n");
  writeFileSync(join(dir, 'who.sls'), `who: ${who}\n`);
  return dir;
}

describe('hot multi-master: the first master dies', () => {
  const trees = mkdtempSync(join(tmpdir(), 'tsalt-hot-pillar-'));
  let a: Cluster;
  let b: Cluster;
  let minion: Daemon;
  let events: EventListener;
  const seen: SaltEvent[] = [];

  beforeAll(async () => {
    const master = (id: string, iface: string) => ({
      id,
      interface: iface,
      auto_accept: true,
      pillar_roots: { base: [pillarTree(trees, id)] },
    });
    ({ a, b } = await twoMasters(master('down-a', A), master('down-b', B)));
    await b.startMaster();
    events = new EventListener(masterEventAddresses(join(b.root, 'var/run/salt/master')), [
      'myco/',
      'salt/minion/',
    ]);
    await events.ready();
    void (async () => {
      for await (const ev of events) seen.push(ev);
    })();
    minion = await a.startMinion('hd1', { master: [A, B], master_alive_interval: 2 });
    await minion.waitFor(`hot master: connected to ${B} too`, 90_000);
  }, 180_000);

  afterAll(async () => {
    events?.close();
    for (const c of [b, a]) await c?.stop().catch(() => undefined);
    rmSync(trees, { recursive: true, force: true });
  }, 120_000);

  const pillarWho = async (c: Cluster) =>
    ((await c.saltJson(['hd1', 'pillar.items', '-t', '30'])).data.hd1 as Record<string, unknown>).who;

  it("both up: the pillar is the first master's, and B got the start event too", async () => {
    expect(await pillarWho(b)).toBe('down-a');
    await until('the start event on B', async () =>
      seen.some((e) => e.tag === 'salt/minion/hd1/start') ? true : undefined,
    );
  }, 120_000);

  it('after kill -9 of A: pillar, event.fire_master and the mine go through B', async () => {
    await a.master!.stop('SIGKILL');
    await minion.waitFor(`hot master: ${A} is down`, 30_000);
    expect(await pillarWho(b)).toBe('down-b');
    expect(
      (await b.saltJson(['hd1', 'event.fire_master', '{n: 7}', 'myco/after-kill', '-t', '30'])).data,
    ).toEqual({
      hd1: true,
    });
    const fired = await until('myco/after-kill on B', async () =>
      seen.find((e) => e.tag === 'myco/after-kill'),
    );
    expect(fired.data).toMatchObject({ id: 'hd1', data: { n: 7 } });
    expect((await b.saltJson(['hd1', 'mine.send', 'test.echo', 'mined', '-t', '30'])).data).toEqual({
      hd1: true,
    });
    expect((await b.saltJson(['hd1', 'mine.get', 'hd1', 'test.echo', '-t', '30'])).data).toEqual({
      hd1: { hd1: 'mined' },
    });
  }, 120_000);

  it('A back: the requests go to the first master again', async () => {
    await a.startMaster();
    await minion.waitFor(`hot master: ${A} answers again`, 60_000);
    expect(await pillarWho(b)).toBe('down-a');
    expect((await a.saltJson(['hd1', 'test.echo', 'back', '-t', '30'])).data).toEqual({ hd1: 'back' });
  }, 120_000);
});
