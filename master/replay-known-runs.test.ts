import { describe, expect, it } from 'vitest';
import type { ReplayItem } from './publish-replay.js';
import { type JobRuns, KnownRuns, plainAddress, type RunFacts } from './replay-known-runs.js';

function item(seq: number, jid: string, tgt: unknown = '*', tgtType = 'glob'): ReplayItem {
  return { seq, jid, tgt, tgtType, envelope: Buffer.from(jid) };
}

function facts(jobs: Record<string, JobRuns>, addresses: Record<string, string[]> = {}) {
  const asked: string[] = [];
  const f: RunFacts = {
    job: async (jid) => {
      asked.push(jid);
      return jobs[jid];
    },
    addresses: async () => new Map(Object.entries(addresses)),
  };
  return { f, asked };
}

const jids = (items: ReplayItem[]) => items.map((i) => i.jid);

describe('KnownRuns', () => {
  it('a named minion is not replayed what it returned', async () => {
    const { f } = facts({ j1: { returned: ['m1'] }, j2: { returned: ['m2'] } });
    const k = new KnownRuns(f);
    expect(jids(await k.filter({ id: 'm1' }, [item(1, 'j1'), item(2, 'j2'), item(3, 'j3')]))).toEqual([
      'j2',
      'j3',
    ]);
  });

  it('a job every targeted minion returned is replayed to nobody', async () => {
    const { f } = facts({
      j1: { returned: ['a', 'b'], expected: ['a', 'b'] },
      j2: { returned: ['a'], expected: ['a', 'b'] },
    });
    const k = new KnownRuns(f);
    expect(jids(await k.filter({}, [item(1, 'j1'), item(2, 'j2')]))).toEqual(['j2']);
    expect(jids(await k.filter({ address: '10.0.0.9' }, [item(1, 'j1'), item(2, 'j2')]))).toEqual(['j2']);
  });

  it('an unnamed connection is known by its address: skipped when every candidate it targets returned', async () => {
    const { f } = facts(
      {
        j1: { returned: ['a'], expected: ['a', 'ghost'] },
        j2: { returned: [], expected: ['a', 'ghost'] },
        j3: { returned: ['a'], expected: ['a', 'b', 'ghost'] },
        j4: { returned: ['a'] },
      },
      { a: ['10.0.0.1', '127.0.0.1'], b: ['10.0.0.2', '127.0.0.1'], c: ['fe80::1'] },
    );
    const k = new KnownRuns(f);
    const all = [item(1, 'j1'), item(2, 'j2'), item(3, 'j3'), item(4, 'j4', 'a', 'list'), item(5, 'j5')];
    // from a's address: j1 (a returned), j3 (a returned, b is not there), j4 (id target a) are known
    expect(jids(await k.filter({ address: '::ffff:10.0.0.1' }, all))).toEqual(['j2', 'j5']);
    // loopback is a's and b's: b has not returned j3
    expect(jids(await k.filter({ address: '127.0.0.1' }, all))).toEqual(['j2', 'j3', 'j5']);
    // ...unless b is connected under its own name
    expect(jids(await k.filter({ address: '127.0.0.1' }, all, new Set(['b'])))).toEqual(['j2', 'j5']);
    // an address no minion reports: only what every targeted minion returned is left out
    expect(jids(await k.filter({ address: '192.0.2.1' }, all))).toEqual(all.map((i) => i.jid));
  });

  it('what the caches cannot answer is replayed', async () => {
    const f: RunFacts = {
      job: async () => {
        throw new Error('job cache down');
      },
      addresses: async () => {
        throw new Error('data cache down');
      },
    };
    const k = new KnownRuns(f);
    expect(jids(await k.filter({ address: '127.0.0.1' }, [item(1, 'j1')]))).toEqual(['j1']);
    expect(jids(await k.filter({ id: 'm1' }, [item(1, 'j1')]))).toEqual(['j1']);
  });

  it('asks about a job once while its answer is fresh', async () => {
    const { f, asked } = facts({ j1: { returned: [] } });
    const k = new KnownRuns(f);
    await Promise.all([k.filter({ id: 'a' }, [item(1, 'j1')]), k.filter({ id: 'b' }, [item(1, 'j1')])]);
    expect(asked).toEqual(['j1']);
  });

  it('plainAddress unwraps IPv4-mapped IPv6', () => {
    expect(plainAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(plainAddress('FE80::1')).toBe('fe80::1');
  });
});
