/**
 * What /proc says of a process (Linux): its real uid and its children. For the tests that
 * check which user a daemon and the processes it started run as.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The real uid of a process. */
export function uidOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Uid:'));
  return Number(line?.split(/\s+/)[1]);
}

/** The pids whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const ppid = /\nPPid:\s+(\d+)/.exec(readFileSync(`/proc/${e}/status`, 'utf8'))?.[1];
      if (Number(ppid) === pid) out.push(Number(e));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
