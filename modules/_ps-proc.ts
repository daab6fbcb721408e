/**
 * What psutil reads from /proc on Linux, for Salt's `ps` module: process ids, names, command
 * lines, states, owners, start and CPU times, memory, boot time, mounted partitions, network
 * counters and logged-in users (utmp). Field names and units are psutil 5.9's.
 */
import { readdirSync, readFileSync, readlinkSync, statfsSync } from 'node:fs';
import { pySplit, readProc } from './_status-proc.js';

const CLK_TCK = 100;
const PAGE = 4096;

export function pids(): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .sort((a, b) => a - b);
}

export function bootTime(): number {
  const m = /^btime\s+(\d+)/m.exec(readProc('/proc/stat') ?? '');
  return m ? Number(m[1]) : 0;
}

/** The fields of /proc/<pid>/stat after the command name (field 3 = index 0). */
function statFields(pid: number): { comm: string; rest: string[] } | undefined {
  const text = readProc(`/proc/${pid}/stat`);
  if (text === undefined) return undefined;
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  return { comm: text.slice(open + 1, close), rest: pySplit(text.slice(close + 1)) };
}

const STATES: Readonly<Record<string, string>> = {
  R: 'running',
  S: 'sleeping',
  D: 'disk-sleep',
  T: 'stopped',
  t: 'tracing-stop',
  Z: 'zombie',
  X: 'dead',
  x: 'dead',
  K: 'wake-kill',
  W: 'waking',
  I: 'idle',
  P: 'parked',
};

let passwd: Map<number, string> | undefined;
function userName(uid: number): string {
  if (!passwd) {
    passwd = new Map();
    try {
      for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
        const f = line.split(':');
        if (f.length > 2 && !passwd.has(Number(f[2]))) passwd.set(Number(f[2]), f[0]!);
      }
    } catch {}
  }
  return passwd.get(uid) ?? String(uid);
}

export interface ProcInfo {
  pid: number;
  ppid: number;
  name: string;
  cmdline: string[];
  status: string;
  username: string | null;
  create_time: number;
  cpu_times: { user: number; system: number; children_user: number; children_system: number; iowait: number };
  memory_info: {
    rss: number;
    vms: number;
    shared: number;
    text: number;
    lib: number;
    data: number;
    dirty: number;
  };
  num_threads: number;
  nice: number;
  terminal: string | null;
  uids: { real: number; effective: number; saved: number };
  gids: { real: number; effective: number; saved: number };
  cwd: string | null;
  exe: string;
}

function idsOf(status: string, key: string): { real: number; effective: number; saved: number } {
  const m = new RegExp(`^${key}:\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)`, 'm').exec(status);
  return { real: Number(m?.[1] ?? 0), effective: Number(m?.[2] ?? 0), saved: Number(m?.[3] ?? 0) };
}

/** One process as psutil sees it, or undefined when it is gone. */
export function procInfo(pid: number, boot = bootTime()): ProcInfo | undefined {
  const st = statFields(pid);
  if (!st) return undefined;
  const r = st.rest;
  const num = (i: number) => Number(r[i] ?? 0);
  const cmdline = (readProc(`/proc/${pid}/cmdline`) ?? '').split('\0');
  while (cmdline.length && cmdline[cmdline.length - 1] === '') cmdline.pop();
  let name = st.comm;
  if (name.length >= 15 && cmdline.length) {
    const base = (cmdline[0] ?? '').split('/').pop() ?? '';
    if (base.startsWith(name)) name = base;
  }
  const status = readProc(`/proc/${pid}/status`) ?? '';
  const uids = idsOf(status, 'Uid');
  const statm = pySplit(readProc(`/proc/${pid}/statm`) ?? '').map((x) => Number(x) * PAGE);
  const link = (p: string): string | null => {
    try {
      return readlinkSync(p);
    } catch {
      return null;
    }
  };
  const ttyNr = num(4);
  return {
    pid,
    ppid: num(1),
    name,
    cmdline,
    status: STATES[r[0] ?? ''] ?? r[0] ?? '?',
    username: status ? userName(uids.real) : null,
    create_time: Math.round((boot + num(19) / CLK_TCK) * 100) / 100,
    cpu_times: {
      user: num(11) / CLK_TCK,
      system: num(12) / CLK_TCK,
      children_user: num(13) / CLK_TCK,
      children_system: num(14) / CLK_TCK,
      iowait: num(39) / CLK_TCK,
    },
    memory_info: {
      rss: statm[1] ?? 0,
      vms: statm[0] ?? 0,
      shared: statm[2] ?? 0,
      text: statm[3] ?? 0,
      lib: statm[4] ?? 0,
      data: statm[5] ?? 0,
      dirty: statm[6] ?? 0,
    },
    num_threads: num(17),
    nice: num(16),
    terminal: ttyNr ? link(`/proc/${pid}/fd/0`) : null,
    uids,
    gids: idsOf(status, 'Gid'),
    cwd: link(`/proc/${pid}/cwd`),
    exe: link(`/proc/${pid}/exe`) ?? '',
  };
}

/** psutil's `disk_partitions(all)`: mounted file systems (physical ones unless `all`). */
export function diskPartitions(all: boolean): Array<Record<string, unknown>> {
  const physical = new Set<string>(['zfs']);
  for (const line of (readProc('/proc/filesystems') ?? '').split('\n')) {
    if (line && !line.startsWith('nodev')) physical.add(line.trim());
  }
  const out: Array<Record<string, unknown>> = [];
  for (const line of (readProc('/proc/self/mounts') ?? '').split('\n')) {
    const c = pySplit(line);
    if (c.length < 4) continue;
    const [device, mountpoint, fstype, opts] = c.map((x) => x.replace(/\\040/g, ' '));
    if (!all && (device === '' || device === 'none' || !physical.has(fstype!))) continue;
    // psutil's f_namemax; Node's statfs does not give it, and 255 is every Linux file system's
    let maxfile: number | null = null;
    try {
      statfsSync(mountpoint!);
      maxfile = 255;
    } catch {}
    out.push({ device, mountpoint, fstype, opts, maxfile, maxpath: maxfile === null ? null : 4096 });
  }
  return out;
}

/** psutil's `disk_usage(path)`. */
export function diskUsageOf(path: string): { total: number; used: number; free: number; percent: number } {
  const st = statfsSync(path);
  const total = st.blocks * st.bsize;
  const free = st.bavail * st.bsize;
  const used = (st.blocks - st.bfree) * st.bsize;
  const denom = used + free;
  return { total, used, free, percent: denom ? Math.round((used / denom) * 1000) / 10 : 0 };
}

/** psutil's `net_io_counters(pernic=True)` from /proc/net/dev. */
export function netIoCounters(): Record<string, Record<string, number>> {
  const ret: Record<string, Record<string, number>> = {};
  for (const line of (readProc('/proc/net/dev') ?? '').split('\n').slice(2)) {
    if (!line.includes(':')) continue;
    const name = line.slice(0, line.indexOf(':')).trim();
    const f = pySplit(line.slice(line.indexOf(':') + 1)).map(Number);
    ret[name] = {
      bytes_sent: f[8] ?? 0,
      bytes_recv: f[0] ?? 0,
      packets_sent: f[9] ?? 0,
      packets_recv: f[1] ?? 0,
      errin: f[2] ?? 0,
      errout: f[10] ?? 0,
      dropin: f[3] ?? 0,
      dropout: f[11] ?? 0,
    };
  }
  return ret;
}

/** psutil's `users()`: the USER_PROCESS records of utmp. */
export function utmpUsers(path = '/var/run/utmp'): Array<Record<string, unknown>> {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch {
    return [];
  }
  const text = (b: Buffer) => b.toString('utf8').replace(/\0.*$/s, '');
  const out: Array<Record<string, unknown>> = [];
  for (let off = 0; off + 384 <= buf.length; off += 384) {
    if (buf.readInt16LE(off) !== 7) continue;
    let host = text(buf.subarray(off + 76, off + 332));
    if (host === ':0.0' || host === ':0') host = 'localhost';
    out.push({
      name: text(buf.subarray(off + 44, off + 76)),
      terminal: text(buf.subarray(off + 8, off + 40)) || null,
      host,
      started: buf.readInt32LE(off + 340),
      pid: buf.readInt32LE(off + 4),
    });
  }
  return out;
}
