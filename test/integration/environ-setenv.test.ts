/**
 * `environ.setenv update_minion=True` fires `environ_setenv` on the minion's own bus, and the
 * minion sets the variables in its own environment (Salt's minion does the same): a job in a
 * fresh job process, which inherits the minion's environment, sees them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { childrenOf } from '../support/proc-status.js';

describe('environ_setenv on a running minion', () => {
  const c = new Cluster();
  beforeAll(async () => {
    await c.startMaster();
    // a job process retires after 1 s idle: the next job runs in a fresh one
    await c.startMinion('envm', { job_process_idle_timeout: 1 });
  }, 60_000);
  afterAll(() => c.stop());

  const call = async (...fun: string[]): Promise<unknown> => {
    const r = await c.salt(['--out', 'json', 'envm', ...fun]);
    return (JSON.parse(r.stdout) as Record<string, unknown>).envm;
  };
  /** Waits until the minion has no job process left, so the next job starts one. */
  const noJobProcess = async (): Promise<void> => {
    const pid = c.minions.get('envm')!.proc.pid!;
    for (let n = 0; childrenOf(pid).length > 0; n++) {
      if (n > 300) throw new Error('the job process did not retire');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('sets and unsets variables in the minion, which later job processes inherit', async () => {
    await expect(call('environ.setenv', '{"TSALT_T_ENV": "v1"}', 'update_minion=True')).resolves.toEqual({
      TSALT_T_ENV: 'v1',
    });
    await noJobProcess();
    await expect(call('environ.get', 'TSALT_T_ENV')).resolves.toBe('v1');
    await expect(call('cmd.run', 'echo "[$TSALT_T_ENV]"')).resolves.toBe('[v1]');
    // without update_minion the minion keeps its own value
    await expect(call('environ.setenv', '{"TSALT_T_ENV": "v2"}')).resolves.toEqual({ TSALT_T_ENV: 'v2' });
    await noJobProcess();
    await expect(call('environ.get', 'TSALT_T_ENV')).resolves.toBe('v1');
    await expect(
      call('environ.setenv', '{"TSALT_T_ENV": false}', 'false_unsets=True', 'update_minion=True'),
    ).resolves.toEqual({ TSALT_T_ENV: null });
    await noJobProcess();
    await expect(call('environ.has_value', 'TSALT_T_ENV')).resolves.toBe(false);
  }, 120_000);
});
