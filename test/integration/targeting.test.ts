import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

/** Every minion answered True, and no other minion was expected. */
function pinged(ids: string[]): Record<string, boolean> {
  return Object.fromEntries(ids.map((id) => [id, true]));
}

describe('targeting: every target type against four minions with distinct grains', () => {
  const c = new Cluster({
    quiet: true,
    master: {
      nodegroups: {
        webs: 'G@roles:web',
        pair: ['m1', 'm2'],
        webs_or_m4: 'N@webs or E@m4',
        loop: 'N@loop_b',
        loop_b: 'm1 or N@loop',
      },
    },
  });
  const jobFiles = (): number => {
    const dir = join(c.root, 'var/cache/salt/master/jobs');
    return existsSync(dir) ? readdirSync(dir, { recursive: true }).length : 0;
  };

  beforeAll(async () => {
    await c.startMaster();
    await Promise.all([
      c.startMinion('m1', {
        grains: { roles: ['web', 'db'], env: 'prod', deep: { tier: { level: 'gold' } } },
      }),
      c.startMinion('m2', { grains: { roles: ['web'], env: 'prod' } }),
      c.startMinion('m3', { grains: { roles: ['db'], env: 'dev' } }),
      c.startMinion('m4', { grains: { roles: ['cache'], env: 'dev' } }),
    ]);
    // the master learns each minion's grains when the minion reports them at start
    for (const id of ['m1', 'm2', 'm3', 'm4']) {
      const path = join(c.root, 'var/cache/salt/master/minions', id, 'data.p');
      for (let i = 0; i < 200 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 50));
      expect(existsSync(path)).toBe(true);
    }
  }, 60_000);
  afterAll(() => c.stop());

  it.each([
    [['m[12]'], ['m1', 'm2']],
    [
      ['-E', 'm[34]$'],
      ['m3', 'm4'],
    ],
    [
      ['-L', 'm1,m3'],
      ['m1', 'm3'],
    ],
    [
      ['-L', 'm2 m4'],
      ['m2', 'm4'],
    ],
    [
      ['-G', 'roles:web'],
      ['m1', 'm2'],
    ],
    [
      ['-G', 'env:D*'],
      ['m3', 'm4'],
    ],
    [['-G', 'deep:tier:level:gold'], ['m1']],
    [['--delimiter', '|', '-G', 'deep|tier|level|gold'], ['m1']],
    [
      ['-P', 'roles:(db|cache)$'],
      ['m1', 'm3', 'm4'],
    ],
    [
      ['-S', '127.0.0.0/8'],
      ['m1', 'm2', 'm3', 'm4'],
    ],
    [
      ['-S', '127.0.0.1'],
      ['m1', 'm2', 'm3', 'm4'],
    ],
    [
      ['-C', 'G@env:prod and not L@m2 or E@m4'],
      ['m1', 'm4'],
    ],
    [['-C', 'G@env:prod and ( not L@m2 or E@m4 )'], ['m1']],
    [['-C', 'not G@roles:web and not m4'], ['m3']],
    [['-C', 'm* and not S@10.0.0.0/8 and G|@deep|tier|level|g*'], ['m1']],
    [['-C', 'N@pair and not G@roles:db'], ['m2']],
    [
      ['-N', 'webs'],
      ['m1', 'm2'],
    ],
    [
      ['-N', 'pair'],
      ['m1', 'm2'],
    ],
    [
      ['-N', 'webs_or_m4'],
      ['m1', 'm2', 'm4'],
    ],
  ])('salt %j test.ping', async (args, expected) => {
    const r = await c.saltJson([...args, 'test.ping']);
    expect(r.data).toEqual(pinged(expected));
    expect(r.code).toBe(0);
  });

  it.each([[['-E', '1']], [['-S', '10.0.0.0/8']]])('salt %j test.ping matches no minion', async (args) => {
    const r = await c.salt([...args, 'test.ping']);
    expect(r.stdout).toContain('No minions matched the target');
    expect(r.code).toBe(2);
  });

  it.each([
    [['-C', '( G@env:prod or m1'], 'unbalanced parentheses: a "(" is not closed'],
    [['-C', 'G@env:prod )'], 'a ")" has no matching "("'],
    [['-C', 'and m1'], 'it cannot begin with "and"'],
    [['-C', 'm1 or'], 'it ends where a target was expected'],
    [['-C', 'R@%cluster'], 'range targets (R@) are not supported'],
    [['-C', 'Q@x and m1'], 'unknown target type Q@'],
    [['-C', '  '], 'it is empty'],
    [['-C', 'N@nope'], 'Node group nope unavailable'],
    [['-N', 'nope'], 'Node group nope unavailable'],
    [['-N', 'loop'], 'N@loop → N@loop_b → N@loop'],
    [['-G', 'roles'], 'a grain target needs a key and a value separated by ":"'],
    [['-S', '10.0.0.1/8'], 'host bits set'],
    [['-E', 'm('], 'invalid regular expression'],
  ])('salt %j is refused before anything is published', async (args, message) => {
    const before = jobFiles();
    const r = await c.salt([...args, 'test.ping']);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toMatch(/^ERROR: /);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
    expect(jobFiles()).toBe(before);
  });

  it('target options are mutually exclusive, as in Salt', async () => {
    const r = await c.salt(['-G', '-E', 'x', 'test.ping']);
    expect(r.stderr).toContain('The options --pcre/--grain are mutually exclusive');
    expect(r.code).toBe(64);
  });

  it('a minion with no cached grains is expected (greedy) and decides for itself', async () => {
    rmSync(join(c.root, 'var/cache/salt/master/minions/m4'), { recursive: true, force: true });
    const r = await c.saltJson(['-t', '1', '--gather-job-timeout', '1', '-G', 'roles:web', 'test.ping']);
    expect(r.data).toEqual({ m1: true, m2: true, m4: expect.stringMatching(/^Minion did not return/) });
    const cmp = await c.saltJson(['-C', 'G@roles:cache or m1', 'test.ping']);
    expect(cmp.data).toEqual({ m1: true, m4: true });
  });
});
