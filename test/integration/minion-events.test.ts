import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { ownBusAddresses } from '../../modules/_minion-bus.js';
import { Cluster, runCli } from '../../tools/local-cluster.js';

describe('minions fire events to the master (event.send, event.fire_master)', () => {
  const c = new Cluster();
  let events: EventListener;
  const seen: SaltEvent[] = [];

  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('m1');
    events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), [
      'myco/',
      'salt/auth',
      'salt/job/',
      'tsalt/bus/dropped',
    ]);
    await events.ready();
    void (async () => {
      for await (const ev of events) seen.push(ev);
    })();
  });
  afterAll(async () => {
    events.close();
    await c.stop();
  });

  async function eventTagged(tag: string): Promise<SaltEvent | undefined> {
    for (let i = 0; i < 100; i++) {
      const ev = seen.find((e) => e.tag === tag);
      if (ev) return ev;
      await new Promise((r) => setTimeout(r, 25));
    }
    return undefined;
  }

  it('event.send from a job: keywords become data, with the grains asked for', async () => {
    const r = await c.saltJson([
      'm1',
      'event.send',
      'myco/deploy/done',
      'build=42',
      'with_grains=[id, kernel]',
    ]);
    expect(r.data).toEqual({ m1: true });
    const ev = await eventTagged('myco/deploy/done');
    expect(ev?.data).toMatchObject({
      id: 'm1',
      tag: 'myco/deploy/done',
      data: { build: 42, grains: { id: 'm1', kernel: 'Linux' } },
    });
  });

  it('event.fire_master from salt-call goes through its own channel', async () => {
    const r = await runCli('salt-call', [
      '-c',
      c.minionConfDir('m1'),
      '--out',
      'json',
      'event.fire_master',
      '{x: 1}',
      'myco/from-call',
    ]);
    expect(JSON.parse(r.stdout)).toEqual({ local: true });
    expect((await eventTagged('myco/from-call'))?.data).toMatchObject({ id: 'm1', data: { x: 1 } });
  });

  it("a minion cannot fire into the master's namespaces: the event is dropped and logged", async () => {
    const r = await c.saltJson(['m1', 'event.send', 'salt/auth', 'act=accept']);
    expect(r.data).toEqual({ m1: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(
      seen.some(
        (e) => e.tag === 'salt/auth' && (e.data as { data?: { act?: string } }).data?.act === 'accept',
      ),
    ).toBe(false);
    expect(c.master!.out).toContain('Filtering blacklisted event tag salt/auth from minion m1');
    expect((await eventTagged('tsalt/bus/dropped'))?.data).toMatchObject({
      tag: 'salt/auth',
      reason: 'forbidden-tag',
      minion: 'm1',
    });
    // another minion's return, and a job's progress under another id, are refused the same way
    const forged = 'salt/job/20990101000000000000/ret/m2';
    const prog = 'salt/job/20990101000000000000/prog/m2/0';
    for (const tag of [forged, prog])
      expect((await c.saltJson(['m1', 'event.fire_master', '{return: true}', tag])).data).toEqual({
        m1: true,
      });
    for (let i = 0; i < 100 && !c.master!.out.includes(`blacklisted event tag ${prog}`); i++)
      await new Promise((r) => setTimeout(r, 25));
    const drops = seen.filter((e) => e.tag === 'tsalt/bus/dropped').map((e) => e.data.tag);
    expect(drops).toEqual(expect.arrayContaining([forged, prog]));
    expect(seen.some((e) => e.tag === forged || e.tag === prog)).toBe(false);
    expect(c.master!.out).toContain(`Filtering blacklisted event tag ${forged} from minion m1`);
    expect((await c.saltJson(['m1', 'test.ping'])).data).toEqual({ m1: true });
  });

  it("salt-call --local sends to the minion's own bus, as Salt's event.fire, never to the master", async () => {
    // Salt 3006.18 beside a running minion: True, and a listener on the minion's bus sees the
    // data with the job's __pub_* keywords (saltenv None); fire_master stays refused
    const own = new EventListener(ownBusAddresses(join(c.root, 'minions/m1/var/run/salt/minion'), 'm1'), [
      'myco/',
    ]);
    await own.ready();
    const heard: SaltEvent[] = [];
    void (async () => {
      for await (const ev of own) heard.push(ev);
    })();
    const call = (...args: string[]) =>
      runCli('salt-call', ['-c', c.minionConfDir('m1'), '--local', '--out', 'json', ...args]);
    try {
      // the minion binds its bus once signed in: send until the listener hears it
      let sent: SaltEvent | undefined;
      for (let i = 0; i < 20 && !sent; i++) {
        const r = await call('event.send', 'myco/local', `n=${i}`, 'with_env_opts=True');
        if (JSON.parse(r.stdout).local === true) {
          for (let t = 0; t < 100 && !sent; t++) {
            sent = heard.find((e) => e.tag === 'myco/local');
            await new Promise((r) => setTimeout(r, 50));
          }
        } else await new Promise((r) => setTimeout(r, 500));
        expect(r.stderr).not.toContain('Local mode detected');
      }
      expect(Object.keys(sent?.data ?? {})).toEqual([
        'saltenv',
        'pillarenv',
        'n',
        '__pub_fun',
        '__pub_pid',
        '__pub_jid',
        '__pub_tgt',
        '_stamp',
      ]);
      expect(sent?.data).toMatchObject({ saltenv: null, pillarenv: null, __pub_fun: 'event.send' });
      expect(seen.some((e) => e.tag === 'myco/local')).toBe(false);
      const up = await call('event.fire_master', '{x: 1}', 'myco/local-up');
      expect(JSON.parse(up.stdout)).toEqual({ local: false });
      expect(up.stderr).toContain('Local mode detected. Event with tag myco/local-up will NOT be sent.');
    } finally {
      own.close();
    }
  });
});
