/**
 * The minion's running-job records: `<cachedir>/proc/<jid>` files holding msgpack of the
 * publish data plus `pid` (Salt `salt/utils/minion.py` `running` / `_read_proc_file`).
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { unpackIpc } from '../kernel/util.js';

/** One running job as its proc file describes it. */
export type ProcJob = Record<string, unknown> & { jid?: unknown; pid?: unknown; fun?: unknown };

/** `<cachedir>/proc`. */
export function procDir(opts: Readonly<Record<string, unknown>>): string {
  return path.join(String(opts.cachedir ?? '/var/cache/salt/minion'), 'proc');
}

/** Whether a process with this pid exists (Salt `os_is_running`). */
export function pidIsRunning(pid: unknown): boolean {
  const n = typeof pid === 'bigint' ? Number(pid) : typeof pid === 'number' ? pid : Number.NaN;
  if (!Number.isInteger(n) || n <= 0) return false;
  try {
    process.kill(n, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `[state, ppid]` from /proc/<pid>/stat, or null when unreadable. */
function procStat(pid: number): [string, number] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [fields[0] ?? '', Number(fields[1])];
  } catch {
    return null;
  }
}

/**
 * Salt's `_check_cmdline`, for tsalt's process layout: on Linux the pid must be a live
 * (non-zombie) process that is this process, a sibling or child of it (job processes are
 * children of the minion), or one whose command line mentions salt. Elsewhere: true.
 */
function isJobProcess(pidValue: unknown): boolean {
  const pid = Number(pidValue);
  if (!pid) return false;
  try {
    if (!statSync('/proc').isDirectory()) return true;
  } catch {
    return true;
  }
  if (pid === process.pid) return true;
  const stat = procStat(pid);
  if (!stat || stat[0] === 'Z') return false;
  if (stat[1] === process.pid || stat[1] === process.ppid) return true;
  try {
    return readFileSync(`/proc/${pid}/cmdline`).includes('salt');
  } catch {
    return false;
  }
}

/** Removes a proc file, ignoring errors (Salt only logs them at debug). */
export function removeProcFile(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // someone else removed it, or we may not
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof Uint8Array) &&
    !(v instanceof Map)
  );
}

/** Reads one proc file; removes it and returns null when it is empty, stale or not a salt process. */
export function readProcFile(file: string): ProcJob | null {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return null; // the job finished while we were looking
  }
  if (buf.length === 0) {
    removeProcFile(file);
    return null;
  }
  let data: unknown;
  try {
    data = unpackIpc(buf);
  } catch {
    return null;
  }
  if (!isPlainObject(data)) return null;
  if (!pidIsRunning(data.pid) || !isJobProcess(data.pid)) {
    removeProcFile(file);
    return null;
  }
  return data;
}

/**
 * The jobs running on this minion, from its proc dir; stale files are cleaned up on the way.
 * `selfJid` (the asking job) is left out, as Salt leaves out its own process.
 */
export function runningJobs(opts: Readonly<Record<string, unknown>>, selfJid?: string): ProcJob[] {
  const dir = procDir(opts);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: ProcJob[] = [];
  for (const name of names.sort()) {
    const data = readProcFile(path.join(dir, name));
    if (data && (selfJid === undefined || String(data.jid) !== selfJid)) out.push(data);
  }
  return out;
}

/** All descendants of `pid` (children first, depth first), from /proc; empty where /proc is missing. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const stat = procStat(Number(e));
    if (!stat) continue;
    const list = children.get(stat[1]) ?? [];
    list.push(Number(e));
    children.set(stat[1], list);
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}
