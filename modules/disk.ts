/**
 * Salt's `disk` execution module (`salt/modules/disk.py`), the reading side on Linux: `df`
 * usage and inode usage, percentages, `blkid` attributes and a device's file system type, each
 * program run as argv.
 */
import { existsSync } from 'node:fs';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  RetcodeResult,
  SALT_ERR_EXEC_COMMAND,
} from '../kernel/index.js';
import { moreDiskFunctions } from './_disk-fns-more.js';
import { pySplit, runProgram } from './_status-proc.js';
import { which } from './_which.js';

const DF_FLAGS = new Set(['a', 'B', 'h', 'H', 'i', 'k', 'l', 'P', 't', 'T', 'x', 'v']);

/** Salt's `_clean_flags`: the df flags allowed, as one word. */
function cleanFlags(args: unknown, caller: string): string {
  if (args === undefined || args === null) return '';
  let flags = '';
  for (const f of String(args)) {
    if (!DF_FLAGS.has(f)) throw new SALT_ERR_EXEC_COMMAND(`Invalid flag passed to ${caller}`);
    flags += f;
  }
  return flags;
}

/** `cmd.run` output: stdout and stderr together, as Salt's cmd.run gives them. */
async function runMerged(argv: string[]): Promise<string> {
  const r = await runProgram(argv);
  return [r.stdout.replace(/\n$/, ''), r.stderr.replace(/\n$/, '')].filter((x) => x).join('\n');
}

/** Rows of `df` output with a file system name that has spaces joined back into field 0. */
function dfRows(out: string): string[][] {
  const rows: string[][] = [];
  let oldline: string | undefined;
  for (let line of out.split('\n')) {
    if (!line || line.startsWith('Filesystem')) continue;
    if (oldline) line = `${oldline} ${line}`;
    const c = pySplit(line);
    if (c.length === 1) {
      oldline = line;
      continue;
    }
    oldline = undefined;
    while (c.length >= 2 && !/^\d+$/.test(c[1]!)) {
      c[0] = `${c[0]} ${c[1]}`;
      c.splice(1, 1);
    }
    if (c.length >= 2) rows.push(c);
  }
  return rows;
}

export async function diskUsage(ctx: ExecContext, args?: unknown): Promise<Record<string, unknown>> {
  const flags = cleanFlags(args, 'disk.usage');
  if (!existsSync('/etc/mtab')) {
    ctx.log.error('df cannot run without /etc/mtab');
    return {};
  }
  const argv = ['df', '-P', ...(flags ? [`-${flags}`] : [])];
  const ret: Record<string, unknown> = {};
  for (const c of dfRows(await runMerged(argv))) {
    if (c.length < 6) {
      ctx.log.error('Problem parsing disk usage information');
      return {};
    }
    ret[c[5]!] = { filesystem: c[0], '1K-blocks': c[1], used: c[2], available: c[3], capacity: c[4] };
  }
  return ret;
}

export default defineModule({
  name: 'disk',
  doc: 'Module for managing disks and blockdevices.',
  virtual: () =>
    process.platform === 'win32' ? { ok: false, reason: "This module doesn't work on Windows." } : true,
  functions: {
    usage: defineFunction({
      args: (z) => z.object({ args: z.unknown().optional() }),
      doc: `Return usage information for volumes mounted on this minion.

args: df flags to add (any of a B h H i k l P t T x v).

CLI Example:

    salt '*' disk.usage`,
      run: (ctx, a) => diskUsage(ctx, a.args),
    }),
    inodeusage: defineFunction({
      args: (z) => z.object({ args: z.unknown().optional() }),
      doc: `Return inode usage information for volumes mounted on this minion.

CLI Example:

    salt '*' disk.inodeusage`,
      run: async (ctx, a) => {
        const flags = cleanFlags(a.args, 'disk.inodeusage');
        const out = await runMerged(['df', '-iP', ...(flags ? [`-${flags}`] : [])]);
        const ret: Record<string, unknown> = {};
        for (const line of out.split('\n')) {
          if (line.startsWith('Filesystem')) continue;
          const c = pySplit(line);
          if (!c.length) continue;
          if (c.length < 6) {
            ctx.log.error('Problem parsing inode usage information');
            return {};
          }
          ret[c[5]!] = { inodes: c[1], used: c[2], free: c[3], use: c[4], filesystem: c[0] };
        }
        return ret;
      },
    }),
    percent: defineFunction({
      args: (z) => z.object({ args: z.union([z.string(), z.number()]).transform(String).optional() }),
      doc: `Return partition information for volumes mounted on this minion.

args: a mount point: return only its percentage used.

CLI Example:

    salt '*' disk.percent /var`,
      run: async (ctx, a) => {
        const ret: Record<string, string> = {};
        for (const c of dfRows(await runMerged(['df', '-P']))) {
          if (c.length < 6) {
            ctx.log.error('Problem parsing disk usage information');
            return {};
          }
          ret[c[5]!] = c[4]!;
        }
        if (a.args && !Object.hasOwn(ret, a.args)) {
          ctx.log.error(`Problem parsing disk usage information: Partition '${a.args}' does not exist!`);
          return {};
        }
        return a.args ? ret[a.args] : ret;
      },
    }),
    blkid: defineFunction({
      args: (z) =>
        z.object({ device: z.string().nullable().optional(), token: z.string().nullable().optional() }),
      doc: `Return block device attributes: UUID, LABEL, etc. This function only works on
systems where blkid is available.

device: device name from the system.
token: any valid token used for the search.

CLI Example:

    salt '*' disk.blkid
    salt '*' disk.blkid /dev/sda
    salt '*' disk.blkid token='UUID=6a38ee5-7235-44e7-8b22-816a403bad5d'
    salt '*' disk.blkid token='TYPE=ext4'`,
      run: async (_ctx, a) => {
        if (!which('blkid')) throw new SALT_ERR_EXEC_COMMAND('The blkid binary was not found');
        const argv = ['blkid'];
        if (a.device) argv.push(a.device);
        else if (a.token) argv.push('-t', a.token);
        const r = await runProgram(argv);
        const ret: Record<string, Record<string, string>> = {};
        // blkid's exit code is the job's, as Salt's cmd.run_all leaves it (2: nothing found)
        if (r.retcode > 0) return new RetcodeResult(ret, r.retcode);
        for (const line of r.stdout.split('\n')) {
          if (!line) continue;
          const device = pySplit(line)[0]!.slice(0, -1);
          const info: Record<string, string> = {};
          const rest = line.includes(' ') ? line.slice(line.indexOf(' ') + 1) : '';
          for (const m of rest.matchAll(/\s*([^=\s]+)="([^"]*)"/g)) info[m[1]!] = m[2]!;
          ret[device] = info;
        }
        return ret;
      },
    }),
    fstype: defineFunction({
      args: (z) => z.object({ device: z.string() }),
      doc: `Return the filesystem name of the specified device.

device: the name of the device.

CLI Example:

    salt '*' disk.fstype /dev/sdX1`,
      run: async (ctx, a) => {
        // through cmd.run, as Salt's: the job's retcode is the last command's
        const run = async (cmd: string) => String(await ctx.call('cmd.run', [cmd])).split('\n');
        if (which('lsblk')) {
          const out = await run(`lsblk -o fstype ${a.device}`);
          if (out.length > 1 && out[1]!.trim()) return out[1]!.trim();
        }
        if (which('df')) {
          const out = await run(`df -T ${a.device}`);
          if (out.length > 1 && out[1]) return out[1];
        }
        return '';
      },
    }),
    ...moreDiskFunctions,
  },
});
