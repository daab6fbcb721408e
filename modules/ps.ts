/**
 * Salt's `ps` execution module (`salt/modules/ps.py`) on Linux: processes, CPU, memory, disks,
 * network counters and users as psutil reports them, read from /proc (modules/_ps-proc.ts), and
 * signals sent with `process.kill`.
 */
import { constants, cpus, totalmem } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { defineFunction, defineModule, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyFlag, pyInt } from './_coerce.js';
import { statsFunctions } from './_ps-fns-stats.js';
import {
  bootTime,
  diskPartitions,
  diskUsageOf,
  netIoCounters,
  type ProcInfo,
  pids,
  procInfo,
  utmpUsers,
} from './_ps-proc.js';
import { pythonRe } from './_ps-regex.js';
import { runProgram } from './_status-proc.js';

function allProcs(): ProcInfo[] {
  const boot = bootTime();
  return pids()
    .map((p) => procInfo(p, boot))
    .filter((p): p is ProcInfo => p !== undefined);
}

function sendSignal(pid: number, sig: number | string): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw new SALT_ERR_EXEC_COMMAND(`psutil.AccessDenied (pid=${pid})`);
  }
}

function signalOf(v: unknown): number {
  if (typeof v === 'number') return v;
  const s = String(v);
  if (/^\d+$/.test(s)) return Number(s);
  const n = (constants.signals as Record<string, number>)[s.startsWith('SIG') ? s : `SIG${s}`];
  if (n === undefined) throw new SALT_ERR_INVOCATION(`invalid signal: ${s}`);
  return n;
}

/** psutil's `strftime` subset used for boot_time's `time_format`, in local time. */
function strftime(fmt: string, d: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const map: Record<string, string> = {
    Y: String(d.getFullYear()),
    m: p(d.getMonth() + 1),
    d: p(d.getDate()),
    H: p(d.getHours()),
    M: p(d.getMinutes()),
    S: p(d.getSeconds()),
    y: p(d.getFullYear() % 100),
    '%': '%',
  };
  return fmt.replace(/%([YmdHMSy%])/g, (_m, k: string) => map[k] ?? '');
}

const AS_DICT_KEYS = [
  'cmdline',
  'cpu_times',
  'create_time',
  'cwd',
  'exe',
  'gids',
  'memory_info',
  'name',
  'nice',
  'num_threads',
  'pid',
  'ppid',
  'status',
  'terminal',
  'uids',
  'username',
] as const;

export default defineModule({
  name: 'ps',
  doc: 'A salt interface to psutil, a system and process library. See http://code.google.com/p/psutil.',
  virtual: () =>
    process.platform === 'linux' ? true : { ok: false, reason: 'The ps module reads /proc: Linux only.' },
  functions: {
    top: defineFunction({
      args: (z) => z.object({ num_processes: pyInt(z).default(5), interval: z.number().default(3) }),
      doc: `Return a list of top CPU consuming processes during the interval.
num_processes = return the top N CPU consuming processes
interval = the number of seconds to sample CPU usage over

CLI Examples:

    salt '*' ps.top
    salt '*' ps.top 5 10`,
      run: async (ctx, a) => {
        const start = new Map<number, number>();
        for (const p of allProcs()) start.set(p.pid, p.cpu_times.user + p.cpu_times.system);
        await sleep((a.interval ?? 3) * 1000, undefined, { signal: ctx.signal });
        const boot = bootTime();
        const usage: Array<[number, ProcInfo]> = [];
        for (const [pid, before] of start) {
          const p = procInfo(pid, boot);
          if (p) usage.push([p.cpu_times.user + p.cpu_times.system - before, p]);
        }
        usage.sort((x, y) => y[0] - x[0]);
        return usage.slice(0, a.num_processes ?? 5).map(([, p]) => ({
          cmd: p.cmdline.length ? p.cmdline : p.name,
          user: p.username,
          status: p.status,
          pid: p.pid,
          create_time: p.create_time,
          cpu: p.cpu_times,
          mem: p.memory_info,
        }));
      },
    }),
    get_pid_list: defineFunction({
      doc: `Return a list of process ids (PIDs) for all running processes.

CLI Example:

    salt '*' ps.get_pid_list`,
      run: () => pids(),
    }),
    proc_info: defineFunction({
      args: (z) => z.object({ pid: pyInt(z), attrs: z.array(z.string()).nullable().optional() }),
      doc: `Return a dictionary of information for a process id (PID).

pid: PID of process to query.
attrs: optional list of desired process attributes.

CLI Example:

    salt '*' ps.proc_info 2322
    salt '*' ps.proc_info 2322 attrs='["pid", "name"]'`,
      run: (_ctx, a) => {
        const p = procInfo(a.pid);
        if (!p) throw new SALT_ERR_EXEC_COMMAND(`process no longer exists (pid=${a.pid})`);
        const keys = a.attrs ?? AS_DICT_KEYS;
        const out: Record<string, unknown> = {};
        for (const k of keys) {
          if (!(AS_DICT_KEYS as readonly string[]).includes(k))
            throw new SALT_ERR_EXEC_COMMAND(`invalid attr name '${k}'`);
          const v = p[k as keyof ProcInfo];
          // psutil's named tuples (cpu_times, memory_info, uids, gids) reach JSON as lists
          out[k] = v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.values(v) : v;
        }
        return out;
      },
    }),
    kill_pid: defineFunction({
      args: (z) => z.object({ pid: pyInt(z), signal: z.union([z.number(), z.string()]).default(15) }),
      doc: `Kill a process by PID.

pid: PID of process to kill.
signal: signal to send to the process; see manpage entry for kill for possible values.
Default: 15 (SIGTERM).

Returns True if the process was signalled, False when there was none.

CLI Example:

    salt 'minion' ps.kill_pid 2000 signal=9`,
      run: (_ctx, a) => sendSignal(a.pid, signalOf(a.signal ?? 15)),
    }),
    pkill: defineFunction({
      args: (z) =>
        z.object({
          pattern: z.union([z.string(), z.number()]).transform(String),
          user: z.string().nullable().optional(),
          signal: z.union([z.number(), z.string()]).default(15),
          full: pyFlag(z, false),
        }),
      doc: `Kill processes matching a pattern.

pattern: pattern to search for in the process list.
user: limit matches to the given username. Default: all users.
signal: signal to send to the process(es). Default: 15 (SIGTERM).
full: a boolean value indicating whether only the name of the command or the full command line
should be matched against the pattern.

Returns {'killed': [pids]}, or None when nothing matched.

CLI Example:

    salt '*' ps.pkill apache signal=9 user=tomcat`,
      run: (_ctx, a) => {
        const sig = signalOf(a.signal ?? 15);
        const killed: number[] = [];
        for (const p of allProcs()) {
          const hay = a.full ? p.cmdline.join(' ') : p.name;
          if (!hay.includes(a.pattern)) continue;
          if (a.user && a.user !== p.username) continue;
          if (p.pid === process.pid) continue;
          if (sendSignal(p.pid, sig)) killed.push(p.pid);
        }
        return killed.length ? { killed } : null;
      },
    }),
    pgrep: defineFunction({
      args: (z) =>
        z.object({
          pattern: z.union([z.string(), z.number()]).transform(String),
          user: z.string().nullable().optional(),
          full: pyFlag(z, false),
          pattern_is_regex: pyFlag(z, false),
        }),
      doc: `Return the pids for processes matching a pattern.

pattern: pattern to search for in the process list.
user: limit matches to the given username. Default: all users.
full: match the full command line instead of the process name.
pattern_is_regex: the pattern is a Python regular expression searched for.

CLI Example:

    salt '*' ps.pgrep apache user=tomcat full=True`,
      run: (_ctx, a) => {
        const re = a.pattern_is_regex ? pythonRe(a.pattern) : undefined;
        const out: number[] = [];
        for (const p of allProcs()) {
          const hay = a.full ? p.cmdline.join(' ') : p.name;
          const hit = re ? re.test(hay) : hay.includes(a.pattern);
          if (hit && (!a.user || a.user === p.username)) out.push(p.pid);
        }
        return out.length ? out : null;
      },
    }),
    num_cpus: defineFunction({
      doc: `Return the number of CPUs.

CLI Example:

    salt '*' ps.num_cpus`,
      run: () => cpus().length,
    }),
    total_physical_memory: defineFunction({
      doc: `Return the total number of bytes of physical memory.

CLI Example:

    salt '*' ps.total_physical_memory`,
      run: () => totalmem(),
    }),
    boot_time: defineFunction({
      args: (z) => z.object({ time_format: z.string().nullable().optional() }),
      doc: `Return the boot time in number of seconds since the epoch began.

time_format: optionally specify a strftime format string.

CLI Example:

    salt '*' ps.boot_time`,
      run: (_ctx, a) => {
        const t = bootTime();
        return a.time_format ? strftime(a.time_format, new Date(t * 1000)) : t;
      },
    }),
    disk_partitions: defineFunction({
      args: (z) => z.object({ all: pyFlag(z, false) }),
      doc: `Return a list of disk partitions and their device, mount point, and filesystem type.

all: if set to False, only return local, physical partitions (hard disk, USB, CD/DVD
partitions). If True, return all filesystems.

CLI Example:

    salt '*' ps.disk_partitions`,
      run: (_ctx, a) => diskPartitions(a.all),
    }),
    disk_usage: defineFunction({
      args: (z) => z.object({ path: z.string() }),
      doc: `Given a path, return a dict listing the total available space as well as the free
space, and used space.

CLI Example:

    salt '*' ps.disk_usage /home`,
      run: (_ctx, a) => diskUsageOf(a.path),
    }),
    disk_partition_usage: defineFunction({
      args: (z) => z.object({ all: pyFlag(z, false) }),
      doc: `Return a list of disk partitions plus the mount point, filesystem and usage statistics.

CLI Example:

    salt '*' ps.disk_partition_usage`,
      run: (_ctx, a) => diskPartitions(a.all).map((p) => ({ ...p, ...diskUsageOf(String(p.mountpoint)) })),
    }),
    network_io_counters: defineFunction({
      args: (z) => z.object({ interface: z.string().nullable().optional() }),
      doc: `Return network I/O statistics.

CLI Example:

    salt '*' ps.network_io_counters
    salt '*' ps.network_io_counters interface=eth0`,
      run: (_ctx, a) => {
        const per = netIoCounters();
        if (a.interface) return per[a.interface] ?? false;
        const sum: Record<string, number> = {};
        for (const nic of Object.values(per))
          for (const [k, v] of Object.entries(nic)) sum[k] = (sum[k] ?? 0) + v;
        return sum;
      },
    }),
    get_users: defineFunction({
      doc: `Return logged-in users.

CLI Example:

    salt '*' ps.get_users`,
      run: () => utmpUsers(),
    }),
    status: defineFunction({
      args: (z) => z.object({ status: z.unknown() }),
      doc: `Returns a list of processes according to their state.

status: one of running, sleeping, disk-sleep, stopped, tracing-stop, zombie, dead, wake-kill,
waking, idle, parked.

CLI Example:

    salt '*' ps.status sleeping`,
      run: (_ctx, a) => {
        if (!a.status) throw new SALT_ERR_INVOCATION('Filter is required for ps.status');
        return allProcs()
          .filter((p) => p.status === a.status)
          .map((p) => ({ pid: p.pid, name: p.name }));
      },
    }),
    psaux: defineFunction({
      args: (z) => z.object({ name: z.union([z.string(), z.number()]).transform(String) }),
      doc: `Retrieve information corresponding to a "ps aux" filtered with the given pattern.
It could be just a name or a regular expression (using python search from "re" module).

CLI Example:

    salt '*' ps.psaux www-data.+apache2`,
      run: async (_ctx, a) => {
        const re = pythonRe(a.name);
        const found = (await runProgram(['ps', 'aux'])).stdout
          .split('\n')
          .filter((l) => l && re.test(l) && !/salt.+ps\.psaux.+/.test(l));
        return [a.name, found, `${found.length} occurrence(s).`];
      },
    }),
    ...statsFunctions,
  },
});
