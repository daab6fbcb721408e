import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, jsonDocuments } from '../../tools/local-cluster.js';

describe('a job end to end: salt CLI → master → minion → return', () => {
  const c = new Cluster({ master: { keep_jobs_seconds: 2 } });
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('m1');
    await c.startMinion('m2');
  });
  afterAll(() => c.stop());

  it('test.ping returns True from every minion', async () => {
    const r = await c.saltJson(['*', 'test.ping']);
    expect(r.data).toEqual({ m1: true, m2: true });
    expect(r.code).toBe(0);
  });

  it('each minion reports its grains at start: the master keeps them in the minion data cache', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { unpackIpc } = await import('../../kernel/serial/index.js');
    const { existsSync } = await import('node:fs');
    const path = join(c.root, 'var/cache/salt/master/minions/m1/data.p');
    for (let i = 0; i < 100 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 50));
    const data = unpackIpc(readFileSync(path)) as {
      grains: Record<string, unknown>;
      pillar: unknown;
    };
    expect(data.grains.id).toBe('m1');
    expect(data.grains.kernel).toBe('Linux');
    expect(data.pillar).toEqual({});
    expect(c.minions.get('m1')!.out).not.toContain('pillar not received');
  });

  it('prints nested output like Salt without colour on a pipe', async () => {
    const r = await c.salt(['m1', 'test.ping']);
    expect(r.stdout).toBe('m1:\n    True\n');
  });

  it('cmd.run goes through the shell for a remote job', async () => {
    const r = await c.saltJson(['m1', 'cmd.run', 'echo hi | tr h H']);
    expect(r.data).toEqual({ m1: 'Hi' });
  });

  it('passes args with YAML typing and kwargs as Salt does', async () => {
    const r = await c.saltJson(['m1', 'test.arg', 'a', '1', 'k=v']);
    // Salt's test.arg echoes the publish data it was given as __pub_* keywords too.
    const m1 = r.data.m1 as { args: unknown[]; kwargs: Record<string, unknown> };
    expect(m1.args).toEqual(['a', 1]);
    expect(Object.keys(m1.kwargs)).toEqual([
      'k',
      '__pub_fun',
      '__pub_arg',
      '__pub_tgt',
      '__pub_jid',
      '__pub_ret',
      '__pub_tgt_type',
      '__pub_user',
    ]);
    expect(m1.kwargs.k).toBe('v');
    expect(m1.kwargs.__pub_arg).toEqual(['a', 1, { __kwarg__: true, k: 'v' }]);
  });

  it('a list target with an unknown id reports it as [No response], as Salt does', async () => {
    const r = await c.salt(['-L', 'm1,ghost', 'test.ping', '--out', 'json']);
    const out = Object.assign({}, ...jsonDocuments(r.stdout)) as Record<string, unknown>;
    expect(out.m1).toBe(true);
    expect(out.ghost).toMatch(
      /^Minion did not return\. \[No response\]\nThe minions may not have all finished running .*\n\nsalt-run jobs\.lookup_jid \d{20}$/,
    );
    expect(r.code).toBe(1);
  });

  it("sys.list_functions and sys.argspec come from the minion's loader", async () => {
    const fns = await c.saltJson(['m1', 'sys.list_functions', 'test']);
    expect(fns.data.m1).toContain('test.ping');
    expect(fns.data.m1).not.toContain('cmd.run');
    const spec = await c.saltJson(['m1', 'sys.argspec', 'cmd.run']);
    expect((spec.data.m1 as Record<string, { args: string[] }>)['cmd.run']!.args.slice(0, 2)).toEqual([
      'cmd',
      'cwd',
    ]);
  });

  it('an unknown function is a clear error with a non-zero exit', async () => {
    const r = await c.saltJson(['m1', 'test.nope']);
    expect(r.data).toEqual({ m1: "'test.nope' is not available." });
    expect(r.code).toBe(1);
  });

  it('a failing command gives its retcode and exit code 1', async () => {
    const r = await c.saltJson(['m1', 'cmd.run_all', 'exit 3']);
    expect((r.data.m1 as { retcode: number }).retcode).toBe(3);
    expect(r.code).toBe(1);
  });

  it('no matching minion: nothing published, exit 2', async () => {
    const r = await c.salt(['nomatch*', 'test.ping']);
    expect(r.stdout).toContain('No minions matched the target');
    expect(r.code).toBe(2);
  });

  it('--async prints the jid and the return lands in the job cache', async () => {
    const r = await c.salt(['--async', 'm1', 'test.echo', 'hello']);
    expect(r.stdout).toMatch(/^Executed command with job ID: \d{20}\n$/);
  });

  it('a minion whose job outlives the timeout is still waited for (find_job)', async () => {
    const started = Date.now();
    const r = await c.saltJson(['-t', '1', 'm1', 'test.sleep', '3']);
    expect(r.data).toEqual({ m1: true });
    expect(Date.now() - started).toBeGreaterThan(2500);
  });

  it('a job whose process dies yields an error return, and the minion keeps serving', async () => {
    const r = await c.saltJson(['m1', 'cmd.run', 'kill -9 $PPID']);
    expect(r.data.m1).toMatch(/ERROR: .*died/);
    const again = await c.saltJson(['m1', 'test.ping']);
    expect(again.data).toEqual({ m1: true });
  });

  it('after a key deletion rotates the AES key, the remaining minion re-authenticates by itself', async () => {
    const d = await c.saltKey(['-d', 'm2', '-y']);
    expect(d.stdout).toContain('Key for minion m2 deleted.');
    await c.master!.waitFor('AES key rotated', 10_000);
    const r = await c.saltJson(['*', 'test.ping']);
    expect(r.data).toEqual({ m1: true });
    await c.minions.get('m1')!.waitFor('re-authenticating with the master');
  });

  it('old jobs leave the job cache after keep_jobs_seconds', async () => {
    const { def, ctx } = await c.jobCache();
    const jids = async (): Promise<string[]> => Object.keys(await def.getJids!(ctx));
    // a job of its own, looked up as soon as it is published: the jobs of the cases before may
    // have left already on a loaded machine (keep_jobs_seconds is 2)
    const pub = await c.salt(['--async', 'm1', 'test.ping']);
    const jid = /(\d{20})/.exec(pub.stdout)?.[1];
    expect(await jids()).toContain(jid);
    let left = -1;
    for (let i = 0; i < 50 && left !== 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      left = (await jids()).length;
    }
    expect(left).toBe(0);
  });
});
