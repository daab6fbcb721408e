import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import ps from './ps.js';

const ctx = fakeCtx();
const call = async (fun: string, arg: unknown[] = []) => (await invoke(ps, fun, arg, ctx)).value;

describe('ps (real /proc)', () => {
  it('reads this process and the machine as psutil does', async () => {
    const me = (await call('proc_info', [
      process.pid,
      { __kwarg__: true, attrs: ['pid', 'name', 'cpu_times', 'uids'] },
    ])) as Record<string, unknown>;
    expect(me.pid).toBe(process.pid);
    expect(typeof me.name).toBe('string');
    expect(me.cpu_times).toHaveLength(5);
    expect(me.uids).toHaveLength(3);
    expect(await call('num_cpus')).toBeGreaterThan(0);
    expect(await call('total_physical_memory')).toBeGreaterThan(0);
    expect(await call('boot_time')).toBeGreaterThan(1_000_000_000);
    expect(String(await call('boot_time', [{ __kwarg__: true, time_format: '%Y' }]))).toMatch(/^\d{4}$/);
    expect(Object.keys((await call('disk_usage', ['/'])) as object)).toEqual([
      'total',
      'used',
      'free',
      'percent',
    ]);
    expect(Object.keys((await call('network_io_counters')) as object)).toEqual([
      'bytes_sent',
      'bytes_recv',
      'packets_sent',
      'packets_recv',
      'errin',
      'errout',
      'dropin',
      'dropout',
    ]);
    expect(await call('network_io_counters', [{ __kwarg__: true, interface: 'nope0' }])).toBe(false);
    expect(Array.isArray(await call('get_users'))).toBe(true);
    expect(await call('pgrep', ['tsalt-nothing-like-this'])).toBe(null);
    expect(await call('kill_pid', [999_999_999])).toBe(false);
  });

  it('pgrep finds and pkill kills a throwaway process by its command line', async () => {
    const child = spawn('sleep', ['3600.123'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 200));
    try {
      expect(await call('pgrep', ['sleep 3600.123', { __kwarg__: true, full: true }])).toEqual([child.pid]);
      expect(
        // anchored on the whole command line: other tests run `sleep 36...` processes at the same time
        await call('pgrep', ['^sleep 3600\\.123$', { __kwarg__: true, full: true, pattern_is_regex: true }]),
      ).toEqual([child.pid]);
      const gone = new Promise((r) => child.on('exit', r));
      expect(await call('pkill', ['sleep 3600.123', { __kwarg__: true, full: true }])).toEqual({
        killed: [child.pid],
      });
      await gone;
    } finally {
      child.kill('SIGKILL');
    }
  });
});
