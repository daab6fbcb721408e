import { readdirSync, readFileSync } from 'node:fs';
import { cpus, freemem, totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { SaltFloat } from '../kernel/util.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import {
  busyPercent,
  cpuTimes,
  diskIoPerDisk,
  diskIoTotal,
  perCpuTimes,
  pyRound,
  swapMemory,
  virtualMemory,
} from './_ps-stats.js';
import ps from './ps.js';

const call = async (fun: string, arg: unknown[] = []) => (await invoke(ps, fun, arg, fakeCtx())).value;

describe("psutil's counters from /proc", () => {
  it("rounds as Python's round(x, 1): ties to even, binary values as they are", () => {
    expect(pyRound(0.25, 1)).toBe(0.2);
    expect(pyRound(0.75, 1)).toBe(0.8);
    expect(pyRound(12.25, 1)).toBe(12.2);
    expect(pyRound(2.675, 2)).toBe(2.67); // 2.67499999... in binary
    expect(pyRound(33.33333, 1)).toBe(33.3);
    expect(pyRound(99.96, 1)).toBe(100);
  });

  it('reads CPU times with the fields of this kernel, one entry per CPU', () => {
    const t = cpuTimes();
    expect(Object.keys(t)).toEqual([
      'user',
      'nice',
      'system',
      'idle',
      'iowait',
      'irq',
      'softirq',
      'steal',
      'guest',
      'guest_nice',
    ]);
    const per = perCpuTimes();
    expect(per).toHaveLength(cpus().length);
    const sumUser = per.reduce((s, x) => s + (x.user ?? 0), 0);
    expect(Math.abs(sumUser - (t.user ?? 0))).toBeLessThan(5); // same counters, read a moment apart
  });

  it('counts idle and iowait as not busy and guest time once', () => {
    const zero = {
      user: 0,
      nice: 0,
      system: 0,
      idle: 0,
      iowait: 0,
      irq: 0,
      softirq: 0,
      steal: 0,
      guest: 0,
      guest_nice: 0,
    };
    expect(busyPercent(zero, { ...zero, user: 1, idle: 2, iowait: 1 })).toBe(25);
    expect(busyPercent(zero, { ...zero, user: 2, guest: 2, idle: 2 })).toBe(50);
    expect(busyPercent(zero, zero)).toBe(0);
    expect(busyPercent({ ...zero, idle: 5 }, { ...zero, idle: 4, user: 1 })).toBe(100); // a counter going back counts 0
  });

  it('reports memory as the kernel does (Node agrees on total and available)', () => {
    const m = virtualMemory();
    expect(Object.keys(m)).toEqual([
      'total',
      'available',
      'percent',
      'used',
      'free',
      'active',
      'inactive',
      'buffers',
      'cached',
      'shared',
      'slab',
    ]);
    expect(m.total).toBe(totalmem());
    // libuv's free memory is MemAvailable
    expect(Math.abs((m.available ?? 0) - freemem())).toBeLessThan(64 * 1024 * 1024);
    expect(m.percent).toBe(pyRound((((m.total ?? 0) - (m.available ?? 0)) / (m.total ?? 1)) * 100, 1));
    const s = swapMemory();
    expect(Object.keys(s)).toEqual(['total', 'used', 'free', 'percent', 'sin', 'sout']);
    expect(s.used).toBe((s.total ?? 0) - (s.free ?? 0));
  });

  it('reads disk I/O as /sys/block/<disk>/stat has it, summed over whole disks only', () => {
    const per = diskIoPerDisk();
    const disks = readdirSync('/sys/block');
    const disk = disks.find((d) => per[d] && (per[d].read_count ?? 0) > 0) ?? disks.find((d) => per[d]);
    expect(disk).toBeDefined();
    const stat = readFileSync(`/sys/block/${disk}/stat`, 'utf8').trim().split(/\s+/).map(Number);
    const io = per[disk!]!;
    expect(io.read_count).toBeGreaterThanOrEqual(stat[0]! - 1000);
    expect(io.read_count).toBeLessThanOrEqual(stat[0]! + 1000);
    expect(io.read_bytes % 512).toBe(0);
    const total = diskIoTotal()!;
    const wholeReads = disks.reduce((s, d) => s + (per[d]?.read_count ?? 0), 0);
    expect(Math.abs(total.read_count - wholeReads)).toBeLessThan(1000);
  });

  it('answers through the ps module with float percents and false for an unknown disk', async () => {
    const pct = await call('cpu_percent', [0.05]);
    expect(pct).toBeInstanceOf(SaltFloat);
    expect(Number(pct)).toBeGreaterThanOrEqual(0);
    expect(Number(pct)).toBeLessThanOrEqual(100);
    expect(await call('cpu_percent', [0.05, true])).toHaveLength(cpus().length);
    await expect(call('cpu_percent', [-1])).rejects.toThrow('interval is not positive');
    const times = (await call('cpu_times')) as Record<string, unknown>;
    expect(times.idle).toBeInstanceOf(SaltFloat);
    expect((await call('virtual_memory')) as Record<string, unknown>).toHaveProperty('percent');
    expect(((await call('swap_memory')) as Record<string, unknown>).percent).toBeInstanceOf(SaltFloat);
    expect(await call('disk_io_counters', [{ __kwarg__: true, device: 'no-such-disk' }])).toBe(false);
    expect(Object.keys((await call('disk_io_counters')) as object)).toHaveLength(9);
  });
});
