/**
 * System-wide counters as psutil 5.9 reads them on Linux, for Salt's `ps` module: CPU times
 * (/proc/stat), CPU busy percent between two samples, memory and swap (/proc/meminfo,
 * /proc/vmstat) and disk I/O (/proc/diskstats). Field names, order, units and rounding are psutil's.
 */
import { existsSync } from 'node:fs';
import { pySplit, readProc } from './_status-proc.js';

const CLK_TCK = 100;
const SECTOR = 512;
const CPU_FIELDS = [
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
];

export type CpuTimes = Record<string, number>;

/** Python's `round(x, digits)`: the nearest decimal, ties to the even digit. */
export function pyRound(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 40));
  const cut = exact.indexOf('.') + digits + 1;
  const rest = exact.slice(cut);
  const tie = /^50*$/.test(rest);
  if (!tie) return Number(x.toFixed(digits));
  const kept = exact.slice(0, cut);
  const last = Number(kept.replace('.', '').slice(-1));
  const down = Number(kept);
  const up = Number((down + 10 ** -digits).toFixed(digits));
  const r = last % 2 === 0 ? down : up;
  return x < 0 ? -r : r;
}

function timesOf(line: string): CpuTimes {
  const values = pySplit(line).slice(1, CPU_FIELDS.length + 1);
  const t: CpuTimes = {};
  values.forEach((v, i) => {
    t[CPU_FIELDS[i]!] = Number(v) / CLK_TCK;
  });
  return t;
}

/** psutil's `cpu_times()` (the first line of /proc/stat). */
export function cpuTimes(): CpuTimes {
  return timesOf((readProc('/proc/stat') ?? '').split('\n')[0] ?? '');
}

/** psutil's `cpu_times(percpu=True)` (the `cpuN` lines of /proc/stat). */
export function perCpuTimes(): CpuTimes[] {
  return (readProc('/proc/stat') ?? '')
    .split('\n')
    .slice(1)
    .filter((l) => l.startsWith('cpu'))
    .map(timesOf);
}

function total(t: CpuTimes): number {
  let sum = 0;
  for (const v of Object.values(t)) sum += v;
  return sum - (t.guest ?? 0) - (t.guest_nice ?? 0);
}

/** psutil's busy percent between two samples (guest time is in user time; idle and iowait are not busy). */
export function busyPercent(t1: CpuTimes, t2: CpuTimes): number {
  const delta: CpuTimes = {};
  for (const k of Object.keys(t2)) delta[k] = Math.max(0, (t2[k] ?? 0) - (t1[k] ?? 0));
  const all = total(delta);
  const busy = all - (delta.idle ?? 0) - (delta.iowait ?? 0);
  return all === 0 ? 0 : pyRound((busy / all) * 100, 1);
}

/** psutil's `usage_percent(used, total, round_=1)`: 0.0 for a zero total. */
function usagePercent(used: number, whole: number): number {
  return whole === 0 ? 0 : pyRound((used / whole) * 100, 1);
}

function meminfo(): Map<string, number> {
  const m = new Map<string, number>();
  for (const line of (readProc('/proc/meminfo') ?? '').split('\n')) {
    const f = pySplit(line);
    if (f.length >= 2) m.set(f[0]!, Number(f[1]) * 1024);
  }
  return m;
}

/** psutil's `virtual_memory()`, in its field order. */
export function virtualMemory(): Record<string, number> {
  const m = meminfo();
  const get = (k: string) => m.get(k) ?? 0;
  const total = get('MemTotal:');
  const free = get('MemFree:');
  const buffers = get('Buffers:');
  const cached = m.has('Cached:') ? get('Cached:') + get('SReclaimable:') : 0;
  const shared = m.get('Shmem:') ?? get('MemShared:');
  const inactive = m.get('Inactive:') ?? get('Inact_dirty:') + get('Inact_clean:') + get('Inact_laundry:');
  let used = total - free - cached - buffers;
  if (used < 0) used = total - free;
  // kernels before 3.14 have no MemAvailable: psutil then estimates free + cached + buffers
  let avail = m.get('MemAvailable:') ?? free + cached + buffers;
  if (avail < 0) avail = 0;
  if (avail > total) avail = free;
  return {
    total,
    available: avail,
    percent: usagePercent(total - avail, total),
    used,
    free,
    active: get('Active:'),
    inactive,
    buffers,
    cached,
    shared,
    slab: get('Slab:'),
  };
}

/** psutil's `swap_memory()`: sizes from /proc/meminfo, pages swapped in and out from /proc/vmstat. */
export function swapMemory(): Record<string, number> {
  const m = meminfo();
  const total = m.get('SwapTotal:') ?? 0;
  const free = m.get('SwapFree:') ?? 0;
  const vm = readProc('/proc/vmstat') ?? '';
  const pages = (k: string) => Number(new RegExp(`^${k} (\\d+)`, 'm').exec(vm)?.[1] ?? 0) * 4 * 1024;
  return {
    total,
    used: total - free,
    free,
    percent: usagePercent(total - free, total),
    sin: pages('pswpin'),
    sout: pages('pswpout'),
  };
}

const IO_KEYS = [
  'read_count',
  'write_count',
  'read_bytes',
  'write_bytes',
  'read_time',
  'write_time',
  'read_merged_count',
  'write_merged_count',
  'busy_time',
] as const;

export type DiskIo = Record<(typeof IO_KEYS)[number], number>;

/** One /proc/diskstats line in psutil's order, or undefined for a layout psutil does not know. */
function ioLine(line: string): [string, DiskIo] | undefined {
  const f = pySplit(line);
  const n = (i: number) => Number(f[i]);
  let name: string;
  let v: number[];
  if (f.length === 15) {
    name = f[3]!;
    v = [n(2), n(7), n(5) * SECTOR, n(9) * SECTOR, n(6), n(10), n(4), n(8), n(12)];
  } else if (f.length === 14 || f.length >= 18) {
    name = f[2]!;
    v = [n(3), n(7), n(5) * SECTOR, n(9) * SECTOR, n(6), n(10), n(4), n(8), n(12)];
  } else if (f.length === 7) {
    name = f[2]!;
    v = [n(3), n(5), n(4) * SECTOR, n(6) * SECTOR, 0, 0, 0, 0, 0];
  } else return undefined;
  const io = {} as DiskIo;
  IO_KEYS.forEach((k, i) => {
    io[k] = v[i]!;
  });
  return [name, io];
}

/** psutil's `disk_io_counters(perdisk=True)`: every block device and partition. */
export function diskIoPerDisk(): Record<string, DiskIo> {
  const ret: Record<string, DiskIo> = {};
  for (const line of (readProc('/proc/diskstats') ?? '').split('\n')) {
    const e = ioLine(line);
    if (e) ret[e[0]] = e[1];
  }
  return ret;
}

/** psutil's `disk_io_counters()`: the sums over whole devices (those under /sys/block), or undefined without any. */
export function diskIoTotal(): DiskIo | undefined {
  let sum: DiskIo | undefined;
  for (const [name, io] of Object.entries(diskIoPerDisk())) {
    if (!existsSync(`/sys/block/${name.replace(/\//g, '!')}`)) continue;
    sum ??= Object.fromEntries(IO_KEYS.map((k) => [k, 0])) as DiskIo;
    for (const k of IO_KEYS) sum[k] += io[k];
  }
  return sum;
}
