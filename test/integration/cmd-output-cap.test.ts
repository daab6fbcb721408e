/**
 * A command's output past the minion's `max_cmd_output_size` reaches the CLI marked as cut, never
 * cut silently (issue 27, item 19), through a real master and minion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

describe('cmd.* output past max_cmd_output_size', () => {
  const c = new Cluster();
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('m1', { max_cmd_output_size: 100_000 });
  });
  afterAll(() => c.stop());

  const notice = (dropped: number) =>
    `VALUE_TRIMMED: the command's stdout went over max_cmd_output_size (100000 bytes); the last ${dropped} bytes were dropped`;
  // `seq 1 100000` prints 588,895 bytes
  const dropped = 588_895 - 100_000;

  it('cmd.run returns the first bytes and a VALUE_TRIMMED line; the job still succeeds', async () => {
    const r = await c.saltJson(['m1', 'cmd.run', 'seq 1 100000']);
    const out = r.data.m1 as string;
    expect(out.startsWith('1\n2\n3\n')).toBe(true);
    expect(out.endsWith(`\n${notice(dropped)}`)).toBe(true);
    expect(out.length).toBe(100_000 + 1 + notice(dropped).length);
    expect(r.code).toBe(0);
    await c.minions.get('m1')!.waitFor(notice(dropped));
  });

  it('cmd.run_all says so in warnings', async () => {
    const r = await c.saltJson(['m1', 'cmd.run_all', 'seq 1 100000']);
    expect(r.data.m1).toMatchObject({ retcode: 0, stderr: '', warnings: [notice(dropped)] });
  });
});
