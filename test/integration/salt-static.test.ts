// `salt --static` as Salt 3006 runs it (salt/cli/salt.py `_run_batch`): a quiet 100 % batch.
// Minions that do not answer the batch's test.ping are left out silently, a minion still
// running the job past `-t` is waited on (find_job), all returns print at once, and the exit
// code is 0 unless nothing returned (2). Expected outputs recorded from a Salt 3006.18 master
// with two minions and a third whose key is accepted but which is stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

describe('salt --static: a quiet 100 % batch, as Salt', () => {
  const c = new Cluster();
  beforeAll(async () => {
    await c.startMaster();
    await Promise.all(['s1', 's2', 's3'].map((id) => c.startMinion(id)));
    await c.minions.get('s3')?.stop();
  }, 120_000);
  afterAll(() => c.stop());

  it('leaves out a minion that does not answer, no "did not return", exit 0', async () => {
    const r = await c.salt(['--static', '*', 'test.ping']);
    expect(r.stdout).toBe('s1:\n    True\ns2:\n    True\n');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('only down minions: nothing printed, "ERROR: No return received", exit 2', async () => {
    const r = await c.salt(['--static', 's3', 'test.ping']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('ERROR: No return received\n');
    expect(r.code).toBe(2);
  });

  it('only down minions with --out json: `{}` (the empty batch result), exit 2', async () => {
    const r = await c.salt(['--static', '--out', 'json', 's3', 'test.ping']);
    expect(r.stdout).toBe('{}\n');
    expect(r.stderr).toBe('ERROR: No return received\n');
    expect(r.code).toBe(2);
  });

  it('only down minions with a state function: the highstate outputter logs the empty answer', async () => {
    const r = await c.salt(['--static', 's3', 'state.apply']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      '[ERROR   ] Data passed to highstate outputter is not a valid highstate return: {}\nERROR: No return received\n',
    );
    expect(r.code).toBe(2);
  });

  it('failing returns still exit 0, and --summary prints nothing more', async () => {
    const r = await c.salt(['--static', '--summary', '*', 'cmd.run', 'exit 3']);
    expect(r.stdout).toBe('s1:\ns2:\n');
    expect(r.code).toBe(0);
  });

  it('waits on a minion still running the job past -t (find_job), as the batch does', async () => {
    const r = await c.salt(['--static', '-t', '2', '--out', 'json', '-L', 's1,s2', 'test.sleep', '5']);
    expect(JSON.parse(r.stdout)).toEqual({ s1: true, s2: true });
    expect(r.code).toBe(0);
  });

  it('a state function prints with highstate and exits 0 when it fails', async () => {
    const r = await c.salt(['--static', 's1', 'state.single', 'test.fail_without_changes', 'name=x']);
    expect(r.stdout).toMatch(
      /^s1:\n-{10}\n {10}ID: x\n {4}Function: test\.fail_without_changes\n {6}Result: False\n/,
    );
    expect(r.stdout).toContain('Failed:    1');
    expect(r.code).toBe(0);
  });
});
