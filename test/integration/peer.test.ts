/**
 * Peer publish end to end (Salt's `peer` and `peer_run`): a real master and two minions; one
 * minion publishes to the other through the master (`publish.publish`, `publish.full_data`),
 * with glob, list and compound targets, a timeout, and runs runners on the master
 * (`publish.runner`). What the master's options do not allow, and a minion reading the returns
 * of a job it did not publish, get Salt's `{}`; malformed loads never stop the master.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, runCli } from '../../tools/local-cluster.js';
import { rawMinion } from '../support/raw-minion.js';

describe('peer publish: minions publish to minions, and run runners, as the master allows', () => {
  const c = new Cluster({
    master: {
      peer: {
        p1: ['test.*', 'grains.item', 'schedule.add'],
        'raw.*': ['test.ping'],
        p2: ['sys.doc'],
        '[': ['test.*'],
      },
      peer_run: { p1: ['manage.up', 'test.arg'] },
    },
  });

  /** `salt <id> <fun> <args...>`: minion `id`'s return. */
  const from = async (id: string, args: string[]): Promise<unknown> => {
    const { data } = await c.saltJson(['-t', '30', id, ...args]);
    return data[id];
  };

  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('p1', { grains: { role: 'web' } });
    await c.startMinion('p2', { grains: { role: 'db' } });
  }, 90_000);

  afterAll(() => c.stop());

  it('an allowed minion publishes to another and gets its return', async () => {
    expect(await from('p1', ['publish.publish', 'p2', 'test.ping'])).toEqual({ p2: true });
    expect(await from('p1', ['publish.publish', '*', 'test.echo', 'hello'])).toEqual({
      p1: 'hello',
      p2: 'hello',
    });
    expect(await from('p1', ['publish.full_data', 'p2', 'test.ping'])).toEqual({ p2: { ret: true } });
  });

  it('the published job carries the arguments as Salt parses them, and the publisher as __pub_id', async () => {
    const ret = (await from('p1', ['publish.publish', 'p2', 'test.arg', 'a,b=1,c'])) as Record<
      string,
      { args: unknown[]; kwargs: Record<string, unknown> }
    >;
    expect(ret.p2?.args).toEqual(['a,b=1,c']);
    expect(ret.p2?.kwargs).toMatchObject({ __pub_fun: 'test.arg', __pub_tgt: 'p2', __pub_id: 'p1' });
    const kw = (await from('p1', ['publish.publish', 'p2', 'test.arg', '["x", "k=2"]'])) as Record<
      string,
      { args: unknown[]; kwargs: Record<string, unknown> }
    >;
    expect(kw.p2?.args).toEqual(['x']);
    expect(kw.p2?.kwargs.k).toBe(2);
  });

  it('targets: list, compound and grain', async () => {
    expect(await from('p1', ['publish.publish', 'p1,p2', 'test.ping', 'tgt_type=list'])).toEqual({
      p1: true,
      p2: true,
    });
    expect(await from('p1', ['publish.publish', 'L@p2', 'test.ping', 'tgt_type=compound'])).toEqual({
      p2: true,
    });
    expect(await from('p1', ['publish.publish', 'role:db', 'test.ping', 'tgt_type=grain'])).toEqual({
      p2: true,
    });
    // nothing matched: Salt's loop never runs and the function answers None
    expect(await from('p1', ['publish.publish', 'nomatch', 'test.ping'])).toBeNull();
  });

  it('what peer does not allow is refused with {}', async () => {
    // a function not in p1's list
    expect(await from('p1', ['publish.publish', 'p2', 'sys.list_modules'])).toEqual({});
    // p2 may publish sys.doc only
    expect(await from('p2', ['publish.publish', 'p1', 'test.ping'])).toEqual({});
    // no publish loops, on the minion and on the master
    expect(await from('p1', ['publish.publish', 'p1', 'publish.publish'])).toEqual({});
    await c.master!.waitFor('minion_pub refused: minion p2 may not run test.ping');
  });

  it('a timeout ends the wait: no return in time is {}', async () => {
    const started = Date.now();
    expect(await from('p1', ['publish.publish', 'p2', 'test.sleep', '6', 'timeout=1'])).toEqual({});
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('publish.runner runs what peer_run allows, and refuses the rest', async () => {
    expect(await from('p1', ['publish.runner', 'manage.up'])).toEqual(['p1', 'p2']);
    expect(await from('p1', ['publish.runner', 'test.arg', 'x,y=2'])).toEqual({
      args: ['x,y=2'],
      kwargs: {},
    });
    expect(await from('p1', ['publish.runner', 'manage.down'])).toEqual({});
    expect(await from('p2', ['publish.runner', 'manage.up'])).toEqual({});
    await c.master!.waitFor('Minion id p2 is not who it says it is!');
  });

  it('schedule.copy and schedule.move publish the job to other minions (schedule.add through peer)', async () => {
    expect(await from('p1', ['schedule.add', 'job1', 'function=test.ping', 'seconds=3600'])).toMatchObject({
      result: true,
    });
    expect(await from('p1', ['schedule.copy', 'job1', 'p2'])).toEqual({
      comment: 'Copied Job job1 from schedule to minion(s).',
      result: true,
      minions: ['p2'],
    });
    expect(await from('p2', ['schedule.list', 'return_yaml=False'])).toEqual({
      job1: {
        function: 'test.ping',
        seconds: 3600,
        maxrunning: 1,
        name: 'job1',
        enabled: true,
        jid_include: true,
      },
    });
    expect(await from('p1', ['schedule.move', 'job1', 'p2'])).toEqual({
      comment: 'Moved Job job1 from schedule.',
      result: true,
      minions: ['p2'],
    });
    expect(await from('p1', ['schedule.list', 'return_yaml=False'])).toEqual({});
    // p2 may not publish schedule.add: nobody answers
    expect(await from('p2', ['schedule.copy', 'job1', 'p1'])).toEqual({
      comment: 'no servers answered the published schedule.add command',
      result: true,
    });
  });

  it("a salt-call on the minion host reaches the running minion's scheduler (its event bus)", async () => {
    const call = async (args: string[]) => {
      const r = await runCli('salt-call', ['-c', c.minionConfDir('p2'), '--out', 'json', ...args]);
      return (JSON.parse(r.stdout) as { local: unknown }).local;
    };
    expect(await call(['schedule.add', 'job2', 'function=test.ping', 'seconds=60'])).toEqual({
      comment: 'Added job: job2 to schedule.',
      result: true,
      changes: { job2: 'added' },
    });
    expect(Object.keys((await call(['schedule.list', 'return_yaml=False'])) as object).sort()).toEqual([
      'job1',
      'job2',
    ]);
    // the running minion has it: the master sees it through the minion, not the salt-call
    expect(Object.keys((await from('p2', ['schedule.list', 'return_yaml=False'])) as object).sort()).toEqual([
      'job1',
      'job2',
    ]);
  });

  it("a minion reads only its own jobs' returns; malformed loads get {} and the master keeps serving", async () => {
    const client = await rawMinion(c.root, c.retPort, { timeoutMs: 20_000 });
    const send = client.send;
    try {
      const call = { fun: 'test.ping', arg: [], tgt: 'p2', ret: '', tgt_type: 'glob' };
      const pub = (await send({ cmd: 'minion_pub', ...call })) as { jid: string; minions: string[] };
      expect(pub.minions).toEqual(['p2']);
      let got: unknown = {};
      for (let i = 0; i < 100 && Object.keys(got as object).length === 0; i++) {
        got = await send({ cmd: 'pub_ret', jid: pub.jid });
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(got).toEqual({ p2: { ret: true } });
      // a job p1 published: not this client's to read
      const other = (await c.saltJson(['p1', 'publish.publish', 'p2', 'test.ping'])).data;
      expect(other.p1).toEqual({ p2: true });
      const authDir = join(c.root, 'var/cache/salt/master/publish_auth');
      const p1Jid = readdirSync(authDir).find((jid) => readFileSync(join(authDir, jid), 'utf8') === 'p1');
      expect(p1Jid).toBeDefined();
      expect(await send({ cmd: 'pub_ret', jid: p1Jid })).toEqual({});
      expect(await send({ cmd: 'pub_ret', jid: '../../etc/passwd' })).toEqual({});
      expect(await send({ cmd: 'pub_ret', jid: '20200101000000000000' })).toEqual({});
      // the legacy synchronous form
      expect(await send({ cmd: 'minion_publish', ...call, tmo: 10 })).toEqual({ p2: true });
      expect(await send({ cmd: 'minion_publish', ...call, tmo: 'soon' })).toEqual({});
      // malformed loads
      expect(await send({ cmd: 'minion_pub', fun: 'test.ping' })).toEqual({});
      expect(await send({ cmd: 'minion_pub', ...call, arg: 'not a list' })).toEqual({});
      expect(await send({ cmd: 'minion_pub', ...call, fun: 42 })).toEqual({});
      expect(await send({ cmd: 'minion_runner', fun: 'manage.up' })).toEqual({});
      expect(await send({ cmd: 'minion_runner', fun: 'manage.up', arg: [] })).toEqual({});
    } finally {
      client.close();
    }
    expect(c.master!.alive).toBe(true);
    expect(await from('p1', ['publish.publish', 'p2', 'test.ping'])).toEqual({ p2: true });
  });
});
