/**
 * Salt's hot multi-master in the tsalt minion (minion/hot-masters.ts): `master: [a, b]` with the
 * default `master_type`, two independent masters (no cluster) on 127.0.0.2 and 127.0.0.3 with one
 * key pair. The minion takes the jobs of both and returns each to the master that published it,
 * whose client is the only one waiting; a master that comes up after the minion is joined then.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster, Daemon } from '../../tools/local-cluster.js';
import { A, B, twoMasters } from '../support/cluster-pair.js';

describe('hot multi-master: a minion with two masters at once', () => {
  let a: Cluster;
  let b: Cluster;
  let minion: Daemon;

  beforeAll(async () => {
    ({ a, b } = await twoMasters(
      { id: 'hot-a', interface: A, auto_accept: true },
      { id: 'hot-b', interface: B, auto_accept: true },
    ));
  }, 120_000);

  afterAll(async () => {
    for (const c of [b, a]) await c?.stop().catch(() => undefined);
  }, 120_000);

  it('starts with the first master while the second is down, and joins the second when it comes up', async () => {
    minion = await a.startMinion('hm1', { master: [A, B] });
    expect(minion.out).toContain(`tcp://${A}:`);
    expect((await a.saltJson(['hm1', 'test.ping', '-t', '30'])).data).toEqual({ hm1: true });
    await b.startMaster();
    await minion.waitFor(`hot master: connected to ${B} too`, 90_000);
  }, 180_000);

  it("runs each master's jobs and returns them to the master that published", async () => {
    for (const [c, word] of [
      [a, 'from-a'],
      [b, 'from-b'],
      [a, 'again-a'],
    ] as const) {
      const r = await c.saltJson(['hm1', 'test.echo', word, '-t', '30']);
      expect(r.data).toEqual({ hm1: word });
    }
    // each master's job cache has the return of its own job only
    const lookup = async (c: Cluster, jid: string) =>
      JSON.parse((await c.saltRun(['--out', 'json', 'jobs.lookup_jid', jid])).stdout) as Record<
        string,
        unknown
      >;
    const pub = await b.salt(['--out', 'json', '-v', 'hm1', 'test.echo', 'only-b', '-t', '30']);
    const jid = /jid (\d{20})/.exec(pub.stdout + pub.stderr)?.[1];
    expect(jid, pub.stdout + pub.stderr).toBeDefined();
    expect(await lookup(b, jid!)).toEqual({ hm1: 'only-b' });
    // A never heard of B's job: no return went there
    expect(await lookup(a, jid!)).toContain(`jid ${jid} was not found in the job cache`);
  }, 120_000);
});
