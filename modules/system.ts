/**
 * Salt's `system` execution module for POSIX systems (`salt/modules/system.py`): halt, poweroff,
 * reboot, shutdown and runlevels through their programs (argv, never a shell); the system
 * date and time, read at a UTC offset or set with `date` (and the hardware clock with `hwclock`
 * where it can be set); the hostname and the pretty hostname (`/etc/machine-info`).
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { rebootWitnessFunctions } from './_system-reboot-witness.js';
import { nowAt, type Parsed, strftime, strptime, type WallClock } from './_system-time.js';
import { which } from './_which.js';

type RunAll = { retcode: number; stdout: string; stderr: string };
const run = (ctx: ExecContext, argv: string[]) => ctx.call('cmd.run', [argv], { python_shell: false });
const runAll = async (ctx: ExecContext, argv: string[], kw: Record<string, unknown> = {}) =>
  (await ctx.call('cmd.run_all', [argv], { python_shell: false, ...kw })) as RunAll;

/** A `[+-]HHMM` offset; YAML reads `+0500` as the number 500, which is taken back as `+0500`. */
const offsetArg = (z: typeof import('zod').z) =>
  z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) =>
      v === undefined || v === null
        ? null
        : typeof v === 'number'
          ? `${v < 0 ? '-' : '+'}${String(Math.abs(v)).padStart(4, '0')}`
          : v,
    );
const when = (at: unknown) => (at === undefined || at === null || at === '' || at === 0 ? 'now' : String(at));

async function hasSettableHwclock(ctx: ExecContext): Promise<boolean> {
  if (!which('hwclock')) return false;
  const r = await runAll(ctx, ['hwclock', '--test', '--systohc'], {
    output_loglevel: 'quiet',
    ignore_retcode: true,
  });
  return r.retcode === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Python's `datetime(...)` checks, with its messages. */
function checkDate(c: Required<Parsed>): void {
  if (c.year < 1 || c.year > 9999) throw new SALT_ERR_INVOCATION(`year ${c.year} is out of range`);
  if (c.month < 1 || c.month > 12) throw new SALT_ERR_INVOCATION('month must be in 1..12');
  const days = c.month === 2 && leap(c.year) ? 29 : (MONTH_DAYS[c.month - 1] as number);
  if (c.day < 1 || c.day > days) throw new SALT_ERR_INVOCATION('day is out of range for month');
  if (c.hour < 0 || c.hour > 23) throw new SALT_ERR_INVOCATION('hour must be in 0..23');
  if (c.minute < 0 || c.minute > 59) throw new SALT_ERR_INVOCATION('minute must be in 0..59');
  if (c.second < 0 || c.second > 59) throw new SALT_ERR_INVOCATION('second must be in 0..59');
}

/** Salt's `set_system_date_time`: the fields not given keep their value now; `date` sets the clock. */
async function setDateTime(ctx: ExecContext, given: Parsed, utcOffset: string | null): Promise<boolean> {
  const now = nowAt(utcOffset);
  const c: Required<Parsed> = {
    year: given.year ?? now.year,
    month: given.month ?? now.month,
    day: given.day ?? now.day,
    hour: given.hour ?? now.hour,
    minute: given.minute ?? now.minute,
    second: given.second ?? now.second,
  };
  checkDate(c);
  const argv = ['date'];
  let t: WallClock = { ...c, weekday: 0, offset: now.offset };
  if (now.offset !== null) {
    const utc = new Date(
      Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - now.offset * 60_000,
    );
    t = nowAt('+0000', utc);
    argv.push('-u');
  }
  const first = await runAll(ctx, [...argv, strftime(t, '%m%d%H%M%Y.%S')], { ignore_retcode: true });
  if (first.retcode !== 0) {
    const posix = await runAll(ctx, [...argv, ` ${strftime(t, '%m%d%H%M%Y')}`], { ignore_retcode: true });
    if (posix.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(`date failed: ${first.stderr}`);
  }
  if (await hasSettableHwclock(ctx)) {
    const r = await runAll(ctx, ['hwclock', '--systohc'], { ignore_retcode: true });
    if (r.retcode !== 0)
      ctx.log.warn(`hwclock failed to set hardware clock from software clock: ${r.stderr}`);
  }
  return true;
}

const unquote = (s: string) =>
  s.length > 0 && s[0] === s[s.length - 1] && (s.startsWith("'") || s.startsWith('"')) ? s.slice(1, -1) : s;

async function getComputerDesc(ctx: ExecContext): Promise<string | false> {
  const hostnamectl = which('hostnamectl');
  let desc: string | undefined;
  if (hostnamectl) desc = String(await run(ctx, [hostnamectl, 'status', '--pretty']));
  else {
    try {
      for (const line of (await readFile('/etc/machine-info', 'utf8')).split('\n')) {
        const m = /^\s*PRETTY_HOSTNAME=(.*)$/.exec(line);
        if (m) desc = unquote((m[1] as string).trim());
      }
    } catch {
      // no file: no description
    }
    if (desc === undefined) return false;
  }
  return desc.replace(/\\\\/g, '\\').replace(/\\"/g, '"').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
}

async function setComputerDesc(ctx: ExecContext, text: string): Promise<boolean> {
  const desc = text.replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  const hostnamectl = which('hostnamectl');
  if (hostnamectl) {
    const r = await ctx.call('cmd.retcode', [[hostnamectl, 'set-hostname', '--pretty', desc]], {
      python_shell: false,
    });
    return r === 0;
  }
  const file = '/etc/machine-info';
  const line = `PRETTY_HOSTNAME="${desc}"`;
  try {
    const lines = existsSync(file)
      ? (await readFile(file, 'utf8')).split(/(?<=\n)/).filter((l) => l !== '')
      : [];
    const at = lines.findIndex((l) => /^\s*PRETTY_HOSTNAME=(.*)$/.test(l.replace(/\n$/, '')));
    if (at >= 0) lines[at] = line;
    else lines.push(line);
    await writeFile(file, lines.join(''));
    return true;
  } catch {
    return false;
  }
}

export default defineModule({
  name: 'system',
  doc: 'Support for reboot, shutdown, the system clock and the hostname on POSIX-like systems.',
  virtual: () =>
    ['win32', 'darwin', 'sunos'].includes(process.platform)
      ? {
          ok: false,
          reason: `This module is not available on ${process.platform === 'win32' ? 'Windows' : process.platform === 'darwin' ? 'Mac OS' : 'SunOS'}`,
        }
      : true,
  functions: {
    halt: defineFunction({
      doc: "Halt a running system\n\nCLI Example: salt '*' system.halt",
      run: (ctx) => run(ctx, ['halt']),
    }),
    poweroff: defineFunction({
      doc: "Poweroff a running system\n\nCLI Example: salt '*' system.poweroff",
      run: (ctx) => run(ctx, ['poweroff']),
    }),
    init: defineFunction({
      args: (z) => z.object({ runlevel: z.union([z.string(), z.number()]).transform(String) }),
      doc: "Change the system runlevel on sysV compatible systems\n\nCLI Example: salt '*' system.init 3",
      run: (ctx, a) => run(ctx, ['init', a.runlevel]),
    }),
    reboot: defineFunction({
      args: (z) => z.object({ at_time: z.unknown().optional() }),
      doc: "Reboot the system (at_time: the wait in minutes)\n\nCLI Example: salt '*' system.reboot",
      run: (ctx, a) => run(ctx, ['shutdown', '-r', when(a.at_time)]),
    }),
    shutdown: defineFunction({
      args: (z) => z.object({ at_time: z.unknown().optional() }),
      doc: "Shutdown a running system (at_time: the wait in minutes)\n\nCLI Example: salt '*' system.shutdown 5",
      run: (ctx, a) =>
        run(ctx, [
          'shutdown',
          ['freebsd', 'netbsd', 'openbsd'].includes(process.platform) ? '-p' : '-h',
          when(a.at_time),
        ]),
    }),
    has_settable_hwclock: defineFunction({
      doc: "Returns True if the system has a hardware clock capable of being set from software.\n\nCLI Example: salt '*' system.has_settable_hwclock",
      run: (ctx) => hasSettableHwclock(ctx),
    }),
    get_system_time: defineFunction({
      args: (z) => z.object({ utc_offset: offsetArg(z) }),
      doc: "Get the system time in HH:MM:SS AM/PM format (utc_offset: '+0600', else local time).\n\nCLI Example: salt '*' system.get_system_time",
      run: (_ctx, a) => strftime(nowAt(a.utc_offset), '%I:%M:%S %p'),
    }),
    get_system_date_time: defineFunction({
      args: (z) => z.object({ utc_offset: offsetArg(z) }),
      doc: "Get the system date/time in YYYY-MM-DD hh:mm:ss format (utc_offset: '+0600', else local time).\n\nCLI Example: salt '*' system.get_system_date_time \"'-0500'\"",
      run: (_ctx, a) => strftime(nowAt(a.utc_offset), '%Y-%m-%d %H:%M:%S'),
    }),
    get_system_date: defineFunction({
      args: (z) => z.object({ utc_offset: offsetArg(z) }),
      doc: "Get the system date (Mon 01/31/2024 format; utc_offset: '+0600', else local time).\n\nCLI Example: salt '*' system.get_system_date",
      run: (_ctx, a) => strftime(nowAt(a.utc_offset), '%a %m/%d/%Y'),
    }),
    set_system_time: defineFunction({
      args: (z) => z.object({ newtime: z.string(), utc_offset: offsetArg(z) }),
      doc: "Set the system time (HH:MM:SS AM/PM, HH:MM AM/PM, HH:MM:SS or HH:MM); False when it does not parse.\n\nCLI Example: salt '*' system.set_system_time \"'11:20'\"",
      run: async (ctx, a) => {
        const t = strptime(a.newtime, ['%I:%M:%S %p', '%I:%M %p', '%H:%M:%S', '%H:%M']);
        if (!t) return false;
        return setDateTime(
          ctx,
          { hour: t.hour ?? 0, minute: t.minute ?? 0, second: t.second ?? 0 },
          a.utc_offset,
        );
      },
    }),
    set_system_date: defineFunction({
      args: (z) => z.object({ newdate: z.string(), utc_offset: offsetArg(z) }),
      doc: "Set the system date (YYYY-MM-DD, MM-DD-YYYY, MM-DD-YY, MM/DD/YYYY, MM/DD/YY or YYYY/MM/DD).\n\nCLI Example: salt '*' system.set_system_date '03-28-13'",
      run: async (ctx, a) => {
        const d = strptime(a.newdate, [
          '%Y-%m-%d',
          '%m-%d-%Y',
          '%m-%d-%y',
          '%m/%d/%Y',
          '%m/%d/%y',
          '%Y/%m/%d',
        ]);
        if (!d) throw new SALT_ERR_INVOCATION('Invalid date format');
        return setDateTime(ctx, { year: d.year, month: d.month, day: d.day }, a.utc_offset);
      },
    }),
    set_system_date_time: defineFunction({
      args: (z) =>
        z.object({
          years: z.number().int().nullish(),
          months: z.number().int().nullish(),
          days: z.number().int().nullish(),
          hours: z.number().int().nullish(),
          minutes: z.number().int().nullish(),
          seconds: z.number().int().nullish(),
          utc_offset: offsetArg(z),
        }),
      doc: "Set the system date and time; the fields not given keep their current value. Updates the hardware clock where it can be set.\n\nCLI Example: salt '*' system.set_system_date_time 2015 5 12 11 37 53 \"'-0500'\"",
      run: (ctx, a) =>
        setDateTime(
          ctx,
          {
            year: a.years ?? undefined,
            month: a.months ?? undefined,
            day: a.days ?? undefined,
            hour: a.hours ?? undefined,
            minute: a.minutes ?? undefined,
            second: a.seconds ?? undefined,
          },
          a.utc_offset,
        ),
    }),
    get_computer_desc: defineFunction({
      doc: "Get PRETTY_HOSTNAME (hostnamectl, else /etc/machine-info); False when there is none.\n\nCLI Example: salt '*' system.get_computer_desc",
      run: (ctx) => getComputerDesc(ctx),
    }),
    set_computer_desc: defineFunction({
      args: (z) => z.object({ desc: z.union([z.string(), z.number()]).transform(String) }),
      doc: "Set PRETTY_HOSTNAME (hostnamectl, else /etc/machine-info); False on failure.\n\nCLI Example: salt '*' system.set_computer_desc \"Michael's laptop\"",
      run: (ctx, a) => setComputerDesc(ctx, a.desc),
    }),
    get_computer_name: defineFunction({
      doc: "Get hostname.\n\nCLI Example: salt '*' system.get_computer_name",
      run: (ctx) => ctx.call('network.get_hostname', []),
    }),
    set_computer_name: defineFunction({
      args: (z) => z.object({ hostname: z.string() }),
      doc: "Modify hostname (network.mod_hostname).\n\nCLI Example: salt '*' system.set_computer_name master.saltstack.com",
      run: (ctx, a) => ctx.call('network.mod_hostname', [a.hostname]),
    }),
    ...rebootWitnessFunctions,
  },
});
