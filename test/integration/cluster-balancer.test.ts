/**
 * `master_type: str` behind a TCP load balancer, as Salt 3007's cluster runs (plugins/cluster,
 * docs/cluster.md): two masters share one AES key and the minions' session keys through
 * PostgreSQL, so a minion that signed in on one master is served by the other. The balancer
 * (test/support/tcp-balancer.ts) sends the minion's request connection to one master and its
 * publish connection to the other, then swaps them mid-session. Also: a job's progress events
 * (`salt/job/<jid>/prog/...`), fired on the master its minion is connected to, reach the master
 * that published the job.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import { type PostgresTestServer, SKIP_DB_TESTS, startPostgres } from '../../tools/db-servers.js';
import type { Cluster, Daemon } from '../../tools/local-cluster.js';
import { TcpBalancer } from '../../tools/tcp-balancer.js';
import { B, type ClusterPair, startClusterPair, until } from '../support/cluster-pair.js';

/** The balancer's address: the only master address the minion knows. */
const LB = '127.0.0.4';

const cache = (c: Cluster, file: string): string => join(c.root, 'var/cache/salt/master', file);
const aesKeyOf = (c: Cluster): string =>
  (JSON.parse(readFileSync(cache(c, '.aes'), 'utf8')) as { key: string }).key;
const sessionOf = (c: Cluster, id: string): string | undefined =>
  existsSync(cache(c, `sessions/${id}`))
    ? readFileSync(cache(c, `sessions/${id}`), 'utf8').trim()
    : undefined;
const count = (text: string, what: string): number => text.split(what).length - 1;

describe.skipIf(SKIP_DB_TESTS)('a cluster behind a TCP load balancer (master_type: str)', () => {
  let pg: PostgresTestServer;
  let pair: ClusterPair;
  let requests: TcpBalancer;
  let publishes: TcpBalancer;
  let minion: Daemon;
  /** Where the balancer sends the request and publish connections: 0 is master A, 1 master B. */
  const route = { requests: 0, publishes: 1 };

  beforeAll(async () => {
    pg = await startPostgres();
    // maintenance every second, so a rotation asked for is made at once
    pair = await startClusterPair(pg, 'balanced', { auto_accept: true, loop_interval: 1 });
    const to = (port: number) => [
      { host: '127.0.0.2', port },
      { host: '127.0.0.3', port },
    ];
    requests = new TcpBalancer(to(pair.a.retPort), () => route.requests);
    publishes = new TcpBalancer(to(pair.a.publishPort), () => route.publishes);
    await requests.listen(LB, pair.a.retPort);
    await publishes.listen(LB, pair.a.publishPort);
  }, 120_000);

  afterAll(async () => {
    await requests?.close();
    await publishes?.close();
    await pair?.stop();
    await pg?.destroy();
  }, 120_000);

  const pingFromBoth = async (): Promise<void> => {
    for (const c of [pair.a, pair.b]) {
      const r = await c.saltJson(['lb1', 'test.ping', '-t', '30']);
      expect(r.data).toEqual({ lb1: true });
    }
  };

  it('the second master takes the AES key of the first', async () => {
    await until('one AES key on both masters', async () =>
      aesKeyOf(pair.a) === aesKeyOf(pair.b) ? true : undefined,
    );
  });

  it('a minion signed in on A, whose publishes come from B, answers jobs from either master', async () => {
    minion = await pair.a.startMinion('lb1', { master: LB, master_type: 'str' });
    expect(requests.routed).toEqual([1, 0]);
    expect(publishes.routed[1]).toBeGreaterThan(0);
    await pingFromBoth();
  }, 120_000);

  it('the balancer swaps the masters mid-session: served by B with the session made on A, no new sign-in', async () => {
    const session = await until('the session made on A, on B', async () => {
      const s = sessionOf(pair.a, 'lb1');
      return s !== undefined && s === sessionOf(pair.b, 'lb1') ? s : undefined;
    });
    const signIns = count(minion.out, 'authenticated with the master');
    route.requests = 1;
    route.publishes = 0;
    requests.cut();
    publishes.cut();
    // the publish connection comes back at once; the request connection with the next request
    await until('the publish connection through the balancer again', async () =>
      publishes.routed[0]! > 0 ? true : undefined,
    );
    await pingFromBoth();
    expect(requests.routed[1]).toBeGreaterThan(0);
    // B served the minion's returns with the session key A made, without a sign-in of its own
    expect(count(minion.out, 'authenticated with the master')).toBe(signIns);
    expect(minion.out).not.toContain('re-authenticating');
    expect(sessionOf(pair.b, 'lb1')).toBe(session);
  }, 120_000);

  it('an AES key rotated on one master is taken by the other, and the minion follows', async () => {
    const before = aesKeyOf(pair.a);
    // what salt-key -d leaves for the maintenance process when rotate_aes_key is on
    writeFileSync(cache(pair.b, '.dfn'), '');
    const rotated = await until('a new AES key on B', async () => {
      const k = aesKeyOf(pair.b);
      return k !== before ? k : undefined;
    });
    await until('the new key on A', async () => (aesKeyOf(pair.a) === rotated ? true : undefined));
    await pingFromBoth();
    expect(aesKeyOf(pair.a)).toBe(aesKeyOf(pair.b));
  }, 120_000);

  it("a job's progress events reach the master that published it", async () => {
    // a minion of B only; the job is published on A
    await pair.a.startMinion('pe1', { master: B, state_events: true });
    const events = new EventListener(masterEventAddresses(join(pair.a.root, 'var/run/salt/master')), [
      'salt/job/',
    ]);
    await events.ready();
    const prog = (async () => {
      for await (const ev of events) if (/^salt\/job\/\d{20}\/prog\/pe1\//.test(ev.tag)) return ev;
      return undefined;
    })();
    try {
      const r = await pair.a.saltJson([
        'pe1',
        'state.single',
        'test.succeed_without_changes',
        'name=p',
        '-t',
        '30',
      ]);
      expect(Object.keys(r.data)).toEqual(['pe1']);
      const ev = await Promise.race([prog, new Promise<undefined>((r) => setTimeout(r, 30_000, undefined))]);
      expect(ev?.tag).toMatch(/^salt\/job\/\d{20}\/prog\/pe1\/0$/);
      expect((ev?.data as { data?: { ret?: { name?: string } } } | undefined)?.data?.ret?.name).toBe('p');
    } finally {
      events.close();
    }
  }, 120_000);
});
