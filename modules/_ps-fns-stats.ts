/**
 * More of Salt's `ps` module, merged into `modules/ps.ts`: CPU times and busy percent, memory,
 * swap and disk I/O counters as psutil reports them (modules/_ps-stats.ts), and the `lsof`,
 * `netstat` and `ss` lines of a process name (through `cmd.run`, as Salt runs them).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { float64, type SaltFloat } from '../kernel/util.js';
import { pyFlag } from './_coerce.js';
import {
  busyPercent,
  type CpuTimes,
  cpuTimes,
  diskIoPerDisk,
  diskIoTotal,
  perCpuTimes,
  swapMemory,
  virtualMemory,
} from './_ps-stats.js';
import { which } from './_which.js';

// psutil's samples at import, which a non-blocking cpu_percent compares with
let lastTimes: CpuTimes = cpuTimes();
let lastPerCpu: CpuTimes[] = perCpuTimes();

const floats = (t: CpuTimes): Record<string, SaltFloat> =>
  Object.fromEntries(Object.entries(t).map(([k, v]) => [k, float64(v)]));

const withFloatPercent = (r: Record<string, number>): Record<string, number | SaltFloat> => ({
  ...r,
  percent: float64(r.percent ?? 0),
});

/** Salt's `str(name)` of the process name argument. */
const nameArg = (z: typeof import('zod').z) =>
  z.union([z.string(), z.number(), z.boolean()]).transform(pyStr);

function pyStr(v: string | number | boolean): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return String(v);
}

async function matchingLines(
  ctx: ExecContext,
  exe: string,
  cmd: string,
  name: string,
): Promise<[string, string[]]> {
  if (!which(exe)) throw new SALT_ERR_EXEC_COMMAND(`The '${exe}' binary was not found in $PATH.`);
  const out = String(await ctx.call('cmd.run', [cmd]));
  return [name, out.split(/\r\n|\r|\n/).filter((l) => l.includes(name))];
}

export const statsFunctions = {
  cpu_percent: defineFunction({
    args: (z) => z.object({ interval: z.number().default(0.1), per_cpu: pyFlag(z, false) }),
    doc: `Return the percent of time the CPU is busy.

interval: the number of seconds to sample CPU usage over
per_cpu: if True return an array of CPU percent busy for each CPU, otherwise aggregate all
percents into one number

CLI Example:

    salt '*' ps.cpu_percent`,
    run: async (ctx, a) => {
      const interval = a.interval ?? 0.1;
      if (interval < 0)
        throw new SALT_ERR_INVOCATION(`ValueError: interval is not positive (got ${interval})`);
      if (a.per_cpu) {
        const before = interval > 0 ? perCpuTimes() : lastPerCpu;
        if (interval > 0) await sleep(interval * 1000, undefined, { signal: ctx.signal });
        lastPerCpu = perCpuTimes();
        return lastPerCpu.map((t, i) => float64(busyPercent(before[i] ?? t, t)));
      }
      const before = interval > 0 ? cpuTimes() : lastTimes;
      if (interval > 0) await sleep(interval * 1000, undefined, { signal: ctx.signal });
      lastTimes = cpuTimes();
      return float64(busyPercent(before, lastTimes));
    },
  }),
  cpu_times: defineFunction({
    args: (z) => z.object({ per_cpu: pyFlag(z, false) }),
    doc: `Return the time the CPU has spent in each state (user, system, idle, nice, iowait, irq,
softirq, ...), in seconds.

per_cpu: if True return a list with the times of each CPU, otherwise the times of all CPUs

CLI Example:

    salt '*' ps.cpu_times`,
    run: (_ctx, a) => (a.per_cpu ? perCpuTimes().map(floats) : floats(cpuTimes())),
  }),
  virtual_memory: defineFunction({
    doc: `Return a dict that describes statistics about system memory usage.

CLI Example:

    salt '*' ps.virtual_memory`,
    run: () => withFloatPercent(virtualMemory()),
  }),
  swap_memory: defineFunction({
    doc: `Return a dict that describes swap memory statistics.

CLI Example:

    salt '*' ps.swap_memory`,
    run: () => withFloatPercent(swapMemory()),
  }),
  disk_io_counters: defineFunction({
    args: (z) => z.object({ device: z.unknown().optional() }),
    doc: `Return disk I/O statistics: of all disks, or of one device (false when there is none
of that name).

CLI Example:

    salt '*' ps.disk_io_counters
    salt '*' ps.disk_io_counters device=sda1`,
    run: (_ctx, a) => {
      if (!a.device) {
        const sum = diskIoTotal();
        if (!sum) throw new SALT_ERR_EXEC_COMMAND("TypeError: 'NoneType' object is not iterable");
        return sum;
      }
      return diskIoPerDisk()[String(a.device)] ?? false;
    },
  }),
  lsof: defineFunction({
    args: (z) => z.object({ name: nameArg(z) }),
    doc: `Retrieve the lsof information of the given process name.

CLI Example:

    salt '*' ps.lsof apache2`,
    run: async (ctx, a) => [a.name, String(await ctx.call('cmd.run', [`lsof -c ${a.name}`]))],
  }),
  netstat: defineFunction({
    args: (z) => z.object({ name: nameArg(z) }),
    doc: `Retrieve the netstat information of the given process name.

CLI Example:

    salt '*' ps.netstat apache2`,
    run: (ctx, a) => matchingLines(ctx, 'netstat', 'netstat -nap', a.name),
  }),
  ss: defineFunction({
    args: (z) => z.object({ name: nameArg(z) }),
    doc: `Retrieve the ss information of the given process name.

CLI Example:

    salt '*' ps.ss apache2`,
    run: (ctx, a) => matchingLines(ctx, 'ss', 'ss -neap', a.name),
  }),
};
