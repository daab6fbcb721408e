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

/** RSS in MiB of `pid` and all its descendants, and how many processes that is. */
export function treeRssMiB(pid: number): { mib: number; processes: number } {
  const all = [pid, ...descendants(pid)];
  return { mib: all.reduce((s, p) => s + rssMiB(p), 0), processes: all.length };
}

/** CPU time (user + system) in ms that `pid` has used so far, from /proc/<pid>/stat (0 once gone). */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
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
