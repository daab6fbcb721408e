import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import status from './status.js';

const ctx = fakeCtx({ grains: { kernel: 'Linux' } });
const call = async (fun: string, arg: unknown[] = []) => (await invoke(status, fun, arg, ctx)).value;

describe('status (real /proc reads, shapes as Salt 3006 returns them)', () => {
  it('uptime, loadavg, version', async () => {
    const up = (await call('uptime')) as Record<string, unknown>;
    expect(Object.keys(up).sort()).toEqual(
      expect.arrayContaining(['days', 'seconds', 'since_iso', 'since_t', 'time']),
    );
    expect(typeof up.seconds).toBe('number');
    expect(String(up.time)).toMatch(/^\d+:\d+$/);
    expect(String(up.since_iso)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$/);
    expect(Object.keys((await call('loadavg')) as object)).toEqual(['1-min', '5-min', '15-min']);
    expect(String(await call('version'))).toMatch(/^Linux version /);
  });

  it('meminfo, cpuinfo, cpustats, vmstats, diskstats, netdev, netstats', async () => {
    const mem = (await call('meminfo')) as Record<string, { value: string; unit?: string }>;
    expect(mem.MemTotal?.unit).toBe('kB');
    expect(mem.MemTotal?.value).toMatch(/^\d+$/);
    const cpu = (await call('cpuinfo')) as Record<string, unknown>;
    expect(typeof cpu.processor).toBe('string');
    const stats = (await call('cpustats')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(stats.cpu ?? {}).sort()).toEqual([
      'idle',
      'iowait',
      'irq',
      'nice',
      'softirq',
      'steal',
      'system',
      'user',
    ]);
    expect(typeof stats.btime).toBe('number');
    expect(typeof ((await call('vmstats')) as Record<string, unknown>).nr_free_pages).toBe('number');
    const dev = (await call('netdev')) as Record<string, Record<string, unknown>>;
    expect(dev.lo?.iface).toBe('lo');
    expect(typeof dev.lo?.rx_bytes).toBe('number');
    const ns = (await call('netstats')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(ns)).toContain('TcpExt');
    expect(typeof (await call('diskstats'))).toBe('object');
  });

  it('diskusage selects by path and by file system type glob', async () => {
    const root = (await call('diskusage', ['/'])) as Record<string, { available: number; total: number }>;
    expect(root['/']!.total).toBeGreaterThan(0);
    const proc = (await call('diskusage', ['proc'])) as Record<string, unknown>;
    expect(Object.keys(proc)).toContain('/proc');
  });

  it('procs, pid, w, nproc; unsupported kernels get Salt text', async () => {
    const procs = (await call('procs')) as Record<string, { user: string; cmd: string }>;
    expect(procs['1']?.user).toBeTypeOf('string');
    expect(String(await call('pid', ['^root\\s+1\\s']))).toMatch(/^1$/m);
    expect(Array.isArray(await call('w'))).toBe(true);
    expect(await call('nproc')).toBeGreaterThan(0);
    const other = fakeCtx({ grains: { kernel: 'Plan9' } });
    expect((await invoke(status, 'meminfo', [], other)).value).toBe(
      'This method is unsupported on the current operating system!',
    );
  });
});
