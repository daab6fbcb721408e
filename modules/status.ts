/**
 * Salt's `status` execution module (`salt/modules/status.py`) on Linux: uptime, load, memory,
 * CPU, disk, VM and network counters from /proc, `w`, `who` and `ps` run as programs, and the
 * kernel version. Shapes and key names are Salt's.
 */
import { statfsSync } from 'node:fs';
import { loadavg as osLoadavg } from 'node:os';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { fnmatchRegExp } from './_fnmatch.js';
import { moreStatusFunctions } from './_status-fns-more.js';
import { pyNumber, pySplit, readProc, runProgram } from './_status-proc.js';
import { which } from './_which.js';

const UNSUPPORTED = 'This method is unsupported on the current operating system!';

const isLinux = (ctx: ExecContext): boolean => (ctx.grains.kernel ?? 'Linux') === 'Linux';

function lines(text: string | undefined): string[] {
  return (text ?? '').split('\n').filter((l) => l !== '');
}

/** `datetime.isoformat()` of a UTC time in seconds (microseconds shown when not zero). */
function isoformat(seconds: number): string {
  const whole = Math.floor(seconds);
  const micro = Math.round((seconds - whole) * 1e6);
  const base = new Date(whole * 1000).toISOString().slice(0, 19);
  return micro ? `${base}.${String(micro).padStart(6, '0')}` : base;
}

export async function uptime(): Promise<Record<string, unknown>> {
  const now = Date.now() / 1000;
  const text = readProc('/proc/uptime');
  if (text === undefined) throw new SALT_ERR_EXEC_COMMAND('File /proc/uptime was not found.');
  const seconds = Math.trunc(Number.parseFloat(text.split(/\s+/)[0] ?? '0'));
  const upSeconds = now - (now - seconds);
  const days = Math.floor(upSeconds / 86400);
  const rest = Math.floor(upSeconds - days * 86400);
  const ret: Record<string, unknown> = {
    seconds,
    since_iso: isoformat(now - seconds),
    since_t: Math.trunc(now - seconds),
    days,
    time: `${Math.floor(rest / 3600)}:${Math.floor((rest % 3600) / 60)}`,
  };
  if (which('who')) {
    const out = await runProgram(['who', '-s']);
    ret.users = out.stdout.replace(/\n$/, '').split('\n').length;
  }
  return ret;
}

export function loadavg(): Record<string, number> {
  const [one, five, fifteen] = osLoadavg();
  return { '1-min': one ?? 0, '5-min': five ?? 0, '15-min': fifteen ?? 0 };
}

export function cpustats(): Record<string, unknown> {
  const ret: Record<string, unknown> = {};
  for (const line of lines(readProc('/proc/stat'))) {
    const c = pySplit(line);
    if (!c.length) continue;
    const n = (i: number) => pyNumber(c[i] ?? '');
    if (c[0] === 'cpu') {
      ret.cpu = {
        idle: n(4),
        iowait: n(5),
        irq: n(6),
        nice: n(2),
        softirq: n(7),
        steal: n(8),
        system: n(3),
        user: n(1),
      };
    } else if (c[0] === 'intr') ret.intr = { total: n(1), irqs: c.slice(2).map(pyNumber) };
    else if (c[0] === 'softirq') ret.softirq = { total: n(1), softirqs: c.slice(2).map(pyNumber) };
    else ret[c[0]!] = n(1);
  }
  return ret;
}

export function meminfo(): Record<string, unknown> {
  const ret: Record<string, { value: string; unit?: string }> = {};
  for (const line of lines(readProc('/proc/meminfo'))) {
    const c = pySplit(line);
    if (!c.length) continue;
    const key = c[0]!.replace(/:/g, '');
    ret[key] = { value: c[1] ?? '' };
    if (c.length > 2) ret[key].unit = c[2]!;
  }
  return ret;
}

export function cpuinfo(): Record<string, unknown> {
  const ret: Record<string, unknown> = {};
  for (const line of lines(readProc('/proc/cpuinfo'))) {
    const c = line.split(':');
    const key = c[0]!.trim();
    if (c.length < 2) throw new SALT_ERR_EXEC_COMMAND('list index out of range');
    ret[key] = key === 'flags' ? pySplit(c[1]!) : c[1]!.trim();
  }
  return ret;
}

const DISKSTAT_FIELDS = [
  'major',
  'minor',
  'device',
  'reads_issued',
  'reads_merged',
  'sectors_read',
  'ms_spent_reading',
  'writes_completed',
  'writes_merged',
  'sectors_written',
  'ms_spent_writing',
  'io_in_progress',
  'ms_spent_in_io',
  'weighted_ms_spent_in_io',
];

export function diskstats(): Record<string, unknown> {
  const ret: Record<string, unknown> = {};
  for (const line of lines(readProc('/proc/diskstats'))) {
    const c = pySplit(line);
    ret[c[2]!] = Object.fromEntries(DISKSTAT_FIELDS.map((f, i) => [f, pyNumber(c[i] ?? '')]));
  }
  return ret;
}

export function diskusage(args: readonly unknown[]): Record<string, { available: number; total: number }> {
  const selected = new Set<string>();
  const fstypes: string[] = [];
  if (!args.length) fstypes.push('*');
  for (const a of args.map(String)) a.startsWith('/') ? selected.add(a) : fstypes.push(a);
  if (fstypes.length) {
    const res = fstypes.map(fnmatchRegExp);
    const text = readProc('/proc/mounts');
    if (text === undefined) return {};
    for (const line of text.split('\n')) {
      const c = pySplit(line);
      if (c.length >= 3 && res.some((r) => r.test(c[2]!))) selected.add(c[1]!.replace(/\\040/g, ' '));
    }
  }
  const ret: Record<string, { available: number; total: number }> = {};
  for (const path of selected) {
    const st = statfsSync(path);
    ret[path] = { available: st.bavail * st.bsize, total: st.blocks * st.bsize };
  }
  return ret;
}

export function vmstats(): Record<string, unknown> {
  const ret: Record<string, unknown> = {};
  for (const line of lines(readProc('/proc/vmstat'))) {
    const c = pySplit(line);
    ret[c[0]!] = pyNumber(c[1] ?? '');
  }
  return ret;
}

export function netstats(): Record<string, unknown> {
  const ret: Record<string, unknown> = {};
  let headers: string[] = [''];
  for (const line of lines(readProc('/proc/net/netstat'))) {
    const c = pySplit(line);
    if (c[0] === headers[0]) {
      const row: Record<string, unknown> = {};
      for (let f = 1; f < headers.length - 1; f++) row[headers[f]!] = pyNumber(c[f] ?? '');
      ret[headers[0]!.replace(/:/g, '')] = row;
    } else headers = c;
  }
  return ret;
}

export function netdev(): Record<string, unknown> {
  const ret: Record<string, unknown> = {};
  for (const line of lines(readProc('/proc/net/dev'))) {
    if (!line.includes(':')) continue;
    const name = line.split(':')[0]!.trim();
    const c = [name, ...pySplit(line.slice(line.indexOf(':') + 1))];
    const n = (i: number) => pyNumber(c[i - 1] ?? '');
    ret[name] = {
      iface: name,
      rx_bytes: n(2),
      rx_compressed: n(8),
      rx_drop: n(5),
      rx_errs: n(4),
      rx_fifo: n(6),
      rx_frame: n(7),
      rx_multicast: n(9),
      rx_packets: n(3),
      tx_bytes: n(10),
      tx_carrier: n(16),
      tx_colls: n(15),
      tx_compressed: n(17),
      tx_drop: n(13),
      tx_errs: n(12),
      tx_fifo: n(14),
      tx_packets: n(11),
    };
  }
  return ret;
}

export async function w(): Promise<Array<Record<string, string>>> {
  const out = await runProgram(['w', '-fh']);
  return lines(out.stdout).map((row) => {
    const c = pySplit(row);
    return {
      idle: c[3] ?? '',
      jcpu: c[4] ?? '',
      login: c[2] ?? '',
      pcpu: c[5] ?? '',
      tty: c[1] ?? '',
      user: c[0] ?? '',
      what: c.slice(6).join(' '),
    };
  });
}

/** The `ps -efHww` listing Salt's `ps` grain names on Linux. */
export async function psListing(): Promise<string> {
  return (await runProgram(['ps', '-efHww'])).stdout;
}

const linuxOnly =
  <T>(fn: () => T) =>
  (ctx: ExecContext): T | string =>
    isLinux(ctx) ? fn() : UNSUPPORTED;

export default defineModule({
  name: 'status',
  doc: 'Module for returning various status data about a minion. These data can be useful for compiling into stats later.',
  virtual: () =>
    process.platform === 'win32'
      ? { ok: false, reason: 'Windows platform is not supported by this module' }
      : true,
  functions: {
    procs: defineFunction({
      doc: `Return the process data.

CLI Example:

    salt '*' status.procs`,
      run: async () => {
        const plines = (await psListing()).split('\n');
        const guide = pySplit(plines.shift() ?? '');
        const at = (names: string[]) => {
          for (const n of names) if (guide.includes(n)) return guide.indexOf(n);
          return 0;
        };
        const uind = at(['USER', 'UID']);
        const pind = at(['PID']);
        const cind = at(['COMMAND', 'CMD']);
        const ret: Record<string, { user: string; cmd: string }> = {};
        for (const line of plines) {
          if (!line) continue;
          const c = pySplit(line);
          ret[c[pind]!] = { user: c[uind]!, cmd: c.slice(cind).join(' ') };
        }
        return ret;
      },
    }),
    uptime: defineFunction({
      doc: `Return the uptime for this system.

CLI Example:

    salt '*' status.uptime`,
      run: () => uptime(),
    }),
    loadavg: defineFunction({
      doc: `Return the load averages for this minion.

CLI Example:

    salt '*' status.loadavg`,
      run: () => loadavg(),
    }),
    cpustats: defineFunction({
      doc: `Return the CPU stats for this minion.

CLI Example:

    salt '*' status.cpustats`,
      run: linuxOnly(cpustats),
    }),
    meminfo: defineFunction({
      doc: `Return the memory info for this minion.

CLI Example:

    salt '*' status.meminfo`,
      run: linuxOnly(meminfo),
    }),
    cpuinfo: defineFunction({
      doc: `Return the CPU info for this minion.

CLI Example:

    salt '*' status.cpuinfo`,
      run: linuxOnly(cpuinfo),
    }),
    diskstats: defineFunction({
      doc: `Return the disk stats for this minion.

CLI Example:

    salt '*' status.diskstats`,
      run: linuxOnly(diskstats),
    }),
    diskusage: defineFunction({
      varargs: true,
      doc: `Return the disk usage for this minion.

Usage::

    salt '*' status.diskusage [paths and/or filesystem types]

CLI Example:

    salt '*' status.diskusage         # usage for all filesystems
    salt '*' status.diskusage / /tmp  # usage for / and /tmp
    salt '*' status.diskusage ext?    # usage for ext[234] filesystems
    salt '*' status.diskusage / ext?  # usage for / and all ext filesystems`,
      run: (_ctx, _a, extra) => diskusage(extra.args),
    }),
    vmstats: defineFunction({
      doc: `Return the virtual memory stats for this minion.

CLI Example:

    salt '*' status.vmstats`,
      run: linuxOnly(vmstats),
    }),
    nproc: defineFunction({
      doc: `Return the number of processing units available on this system.

CLI Example:

    salt '*' status.nproc`,
      run: async (ctx) => {
        if (!isLinux(ctx)) return UNSUPPORTED;
        const n = pyNumber((await runProgram(['nproc'])).stdout.trim());
        return typeof n === 'number' ? n : 0;
      },
    }),
    netstats: defineFunction({
      doc: `Return the network stats for this minion.

CLI Example:

    salt '*' status.netstats`,
      run: linuxOnly(netstats),
    }),
    netdev: defineFunction({
      doc: `Return the network device stats for this minion.

CLI Example:

    salt '*' status.netdev`,
      run: linuxOnly(netdev),
    }),
    w: defineFunction({
      doc: `Return a list of logged in users for this minion, using the w command.

CLI Example:

    salt '*' status.w`,
      run: async (ctx): Promise<unknown> => (isLinux(ctx) ? w() : UNSUPPORTED),
    }),
    all_status: defineFunction({
      doc: `Return a composite of all status data and info for this minion.
Warning: There is a LOT here!

CLI Example:

    salt '*' status.all_status`,
      run: async () => ({
        cpuinfo: cpuinfo(),
        cpustats: cpustats(),
        diskstats: diskstats(),
        diskusage: diskusage([]),
        loadavg: loadavg(),
        meminfo: meminfo(),
        netdev: netdev(),
        netstats: netstats(),
        uptime: await uptime(),
        vmstats: vmstats(),
        w: await w(),
      }),
    }),
    pid: defineFunction({
      args: (z) => z.object({ sig: z.union([z.string(), z.number()]).transform(String) }),
      doc: `Return the PID or an empty string if the process is running or not.
Pass a signature to use to find the process via ps. Note you can pass a Python-compatible
regular expression to return all pids of processes matching the regexp.

CLI Example:

    salt '*' status.pid <sig>`,
      run: async (_ctx, a) => {
        const me = String(process.pid);
        const re = new RegExp(a.sig);
        const pids: string[] = [];
        for (const line of (await psListing()).split('\n')) {
          if (line.includes(me)) continue;
          if (re.test(line)) pids.push(pySplit(line)[1] ?? '');
        }
        return pids.join('\n');
      },
    }),
    version: defineFunction({
      doc: `Return the system version for this minion.

CLI Example:

    salt '*' status.version`,
      run: (ctx) => {
        if (!isLinux(ctx)) return UNSUPPORTED;
        const text = readProc('/proc/version');
        return text === undefined ? {} : text.trim();
      },
    }),
    time: defineFunction({
      pyName: 'time_',
      args: (z) => z.object({ format: z.string().default('%A, %d. %B %Y %I:%M%p') }),
      doc: `Return the current time on the minion, formatted based on the format parameter
(default '%A, %d. %B %Y %I:%M%p').

CLI Example:

    salt '*' status.time '%s'`,
      run: async (_ctx, a) =>
        (await runProgram(['date', `+${a.format ?? '%A, %d. %B %Y %I:%M%p'}`])).stdout.replace(/\n$/, ''),
    }),
    ...moreStatusFunctions,
  },
});
