/**
 * Resident memory of a process tree, from /proc (Linux).
 */
import { readdirSync, readFileSync } from 'node:fs';

function statusField(pid: number, field: string): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Every descendant of `pid` (children, grandchildren, ...). */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = statusField(Number(name), 'PPid');
    if (ppid === undefined) continue;
    const list = parents.get(ppid) ?? [];
    list.push(Number(name));
    parents.set(ppid, list);
  }
  const out: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop() as number;
    for (const c of parents.get(p) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

/** RSS in MiB of `pid` alone. */
export function rssMiB(pid: number): number {
  return (statusField(pid, 'VmRSS') ?? 0) / 1024;
}

/**
 * PSS in MiB of `pid` alone (/proc/<pid>/smaps_rollup): resident pages divided by the number
 * of processes sharing them. Every Node process maps the same ~35-45 MiB of the `node` binary,
 * which VmRSS counts once per process and PSS once in all.
 */
export function pssMiB(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** PSS in MiB of `pid` and all its descendants (the memory the tree really takes). */
export function treePssMiB(pid: number): { mib: number; processes: number } {
  const all = [pid, ...descendants(pid)];
  return { mib: all.reduce((s, p) => s + pssMiB(p), 0), processes: all.length };
}

/** PSS in MiB of `pid` and each descendant, summed by {@link processRole}, largest first. */
export function treePssByRole(pid: number): Record<string, number> {
  const byRole = new Map<string, number>();
  for (const p of [pid, ...descendants(pid)]) {
    const role = processRole(p);
    byRole.set(role, (byRole.get(role) ?? 0) + pssMiB(p));
  }
  return Object.fromEntries([...byRole].sort((a, b) => b[1] - a[1]));
}

/** RSS in MiB of `pid` and all its descendants, and how many processes that is. */
export function treeRssMiB(pid: number): { mib: number; processes: number } {
  const all = [pid, ...descendants(pid)];
  return { mib: all.reduce((s, p) => s + rssMiB(p), 0), processes: all.length };
}

/**
 * CPU time (user + system) in ms that `pid` has used so far, from /proc/<pid>/stat (0 once gone);
 * with `tid`, that one thread's alone (a process's main thread has `tid` = `pid`).
 */
export function cpuMs(pid: number, tid?: number): number {
  try {
    const stat = readFileSync(
      tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`,
      'utf8',
    );
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks (100 a second on Linux)
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU ms of `pid` and its live descendants. */
export function treeCpuMs(pid: number): number {
  return [pid, ...descendants(pid)].reduce((s, p) => s + cpuMs(p), 0);
}

/**
 * What a process is, for CPU tables: a master child by its script (`request-server`,
 * `publisher`, ...), else `master`, `minion` or the script's name.
 */
export function processRole(pid: number): string {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const child = argv.find((a) => a.includes('/children/'));
    if (child) return (child.split('/').pop() ?? child).replace(/\.js$/, '');
    const cli = argv.find((a) => /salt-(master|minion)\.js$/.test(a));
    if (cli) return cli.includes('master') ? 'master' : 'minion';
    const script = argv.slice(1).find((a) => !a.startsWith('-'));
    return (script?.split('/').pop() ?? '?').replace(/\.js$/, '');
  } catch {
    return '?';
  }
}

/** Each process's role and the CPU ms it has used so far, for {@link cpuDelta}. */
export type CpuSnapshot = Map<number, { role: string; ms: number }>;

export function cpuSnapshot(pids: readonly number[]): CpuSnapshot {
  return new Map(pids.map((p) => [p, { role: processRole(p), ms: cpuMs(p) }]));
}

/**
 * CPU ms each role used between two snapshots of the same processes, divided by `per` (e.g. the
 * number of jobs or sign-ins), roles summed (ten minions make one `minion` row), largest first.
 * Read from /proc in clock ticks (10 ms), so `per` should be in the hundreds at least; a process
 * gone by the second snapshot counts nothing.
 */
export function cpuDelta(
  before: CpuSnapshot,
  after: CpuSnapshot,
  per = 1,
): { total: number; byRole: Record<string, number> } {
  const byRole = new Map<string, number>();
  let total = 0;
  for (const [pid, { role, ms }] of before) {
    const d = Math.max(0, (after.get(pid)?.ms ?? ms) - ms) / per;
    byRole.set(role, (byRole.get(role) ?? 0) + d);
    total += d;
  }
  return { total, byRole: Object.fromEntries([...byRole].sort((a, b) => b[1] - a[1])) };
}

/** CPU ms each thread of `pid` has used so far (its main thread has `tid` = `pid`). */
export function threadCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) out.set(Number(t), cpuMs(pid, Number(t)));
  } catch {
    // gone
  }
  return out;
}

/**
 * CPU ms per thread between two {@link threadCpuMs} readings of process `pid`, divided by `per`:
 * `main`, then the other threads largest first (Node names them all `node`, so they are told
 * apart by their load: under a request-server storm the busiest are the worker threads, then
 * V8's and libuv's helpers), those under `minShare` of the total summed as `rest`.
 */
export function threadCpuDelta(
  pid: number,
  before: Map<number, number>,
  after: Map<number, number>,
  per = 1,
  minShare = 0.03,
): { label: string; ms: number }[] {
  const deltas = [...after].map(([tid, ms]) => ({ tid, ms: Math.max(0, ms - (before.get(tid) ?? 0)) / per }));
  const total = deltas.reduce((s, d) => s + d.ms, 0);
  const main = deltas.find((d) => d.tid === pid)?.ms ?? 0;
  const others = deltas.filter((d) => d.tid !== pid).sort((a, b) => b.ms - a.ms);
  const big = others.filter((d) => d.ms >= total * minShare);
  const rest = others.filter((d) => d.ms < total * minShare).reduce((s, d) => s + d.ms, 0);
  return [
    { label: 'main', ms: main },
    ...big.map((d, i) => ({ label: `thread${i + 1}`, ms: d.ms })),
    { label: `rest(${others.length - big.length})`, ms: rest },
  ];
}

/**
 * Context switches of `pid`'s main thread so far (/proc/<pid>/status): `voluntary` (it waited:
 * `epoll_wait`, a lock) and `involuntary` (the scheduler took the core, e.g. for a process it had
 * just woken: the publisher's fan-out wakes ten minions, which preempt it).
 */
export function contextSwitches(pid: number): { voluntary: number; involuntary: number } {
  return {
    voluntary: statusField(pid, 'voluntary_ctxt_switches') ?? 0,
    involuntary: statusField(pid, 'nonvoluntary_ctxt_switches') ?? 0,
  };
}

/**
 * Main-thread context switches per `per` (e.g. jobs) by role between two readings of the same
 * processes ({@link contextSwitches} by pid), as `[voluntary, involuntary]`.
 */
export function switchesByRole(
  before: ReadonlyMap<number, { voluntary: number; involuntary: number }>,
  after: ReadonlyMap<number, { voluntary: number; involuntary: number }>,
  per = 1,
): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const [pid, b] of before) {
    const a = after.get(pid) ?? b;
    const role = processRole(pid);
    const row = out[role] ?? [0, 0];
    out[role] = row;
    row[0] += Math.max(0, a.voluntary - b.voluntary) / per;
    row[1] += Math.max(0, a.involuntary - b.involuntary) / per;
  }
  return out;
}
