/**
 * The files the running processes hold open, read from /proc the way Salt's `file.open_files`
 * does: each process's and thread's `fd/*` targets and each thread's `exe`, resolved to real
 * paths, keeping only those that still exist (sockets, pipes and deleted files drop out).
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';

const list = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

const existing = (link: string): string | undefined => {
  try {
    const name = realpathSync(link);
    statSync(name);
    return name;
  } catch {
    return undefined;
  }
};

/** The sorted, distinct real paths of every file open in any process. */
export function openFiles(): string[] {
  const files = new Set<string>();
  for (const pid of list('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const links = list(`/proc/${pid}/fd`).map((fd) => `/proc/${pid}/fd/${fd}`);
    for (const tid of list(`/proc/${pid}/task`)) {
      links.push(`/proc/${pid}/task/${tid}/exe`);
      for (const fd of list(`/proc/${pid}/task/${tid}/fd`)) links.push(`/proc/${pid}/task/${tid}/fd/${fd}`);
    }
    for (const link of links) {
      const name = existing(link);
      if (name !== undefined) files.add(name);
    }
  }
  return [...files].sort();
}
