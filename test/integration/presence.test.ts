import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

describe('every expected minion ends in a named state', () => {
  const c = new Cluster();
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('alive');
    await c.startMinion('gone');
    await c.startMinion('midjob');
  });
  afterAll(() => c.stop());

  it('a minion whose connection is gone is [Not connected], found without waiting for find_job', async () => {
    await c.minions.get('gone')!.stop('SIGKILL');
    await new Promise((r) => setTimeout(r, 1000));
    const started = Date.now();
    const r = await c.saltJson(['-t', '2', '--gather-job-timeout', '20', '*', 'test.ping']);
    expect(r.data).toMatchObject({ alive: true, gone: 'Minion did not return. [Not connected]' });
    expect(r.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a connected minion that stays silent is [No response]', async () => {
    // SIGSTOP keeps the TCP connection open but the minion cannot answer
    const alive = c.minions.get('alive')!;
    process.kill(alive.proc.pid!, 'SIGSTOP');
    try {
      const r = await c.saltJson(['-t', '1', '--gather-job-timeout', '1', 'alive', 'test.ping']);
      expect(Object.keys(r.data)).toEqual(['alive']);
      expect(r.data.alive).toMatch(
        /^Minion did not return\. \[No response\]\nThe minions may not have all finished/,
      );
    } finally {
      process.kill(alive.proc.pid!, 'SIGCONT');
    }
  });

  it('a minion killed in the middle of a job ends as [Not connected]', async () => {
    const run = c.saltJson(['-t', '2', '--gather-job-timeout', '20', 'midjob', 'test.sleep', '5']);
    await new Promise((r) => setTimeout(r, 800));
    await c.minions.get('midjob')!.stop('SIGKILL');
    const r = await run;
    expect(r.data).toEqual({ midjob: 'Minion did not return. [Not connected]' });
  });

  it('the job cache records how each minion that did not return ended', async () => {
    const r = await c.salt([
      '--show-jid',
      '-t',
      '1',
      '--gather-job-timeout',
      '1',
      '-L',
      'gone,midjob',
      'test.ping',
    ]);
    const jid = /^jid: (\d{20})$/m.exec(r.stdout)![1]!;
    const stored = await c.jobReturns(jid, (s) => Boolean(s.gone && s.midjob));
    expect(stored.gone).toEqual({ return: 'Minion did not return. [Not connected]', state: 'not_connected' });
    expect(stored.midjob?.state).toBe('not_connected');
  });
});
