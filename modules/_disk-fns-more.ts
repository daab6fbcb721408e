/**
 * More of Salt's `disk` module, merged into `modules/disk.ts`: `blockdev` reports and settings
 * (`dump`, `tune`), `wipefs`, `resize2fs`, `mkfs` (`format`), `hdparm` reports and the Host
 * Protected Area (`hdparms`, `hpa`), SMART attributes (`smartctl`), `iostat` averages and the
 * file system type under a path. Commands go through `cmd.*` as Salt's do, so they log alike.
 */
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_EXEC_VALUE,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { parseIostat } from './_disk-iostat.js';
import { which } from './_which.js';

interface RunAll {
  retcode: number;
  stdout: string;
  stderr: string;
}

const runAll = async (ctx: ExecContext, cmd: string | string[], kw: Record<string, unknown> = {}) =>
  (await ctx.call('cmd.run_all', [cmd], { python_shell: false, ...kw })) as RunAll;

function needs(exe: string): void {
  if (!which(exe)) throw new SALT_ERR_EXEC_COMMAND(`The '${exe}' binary was not found in $PATH.`);
}

const BLOCKDEV_OPTS = [
  'getro',
  'getsz',
  'getss',
  'getpbsz',
  'getiomin',
  'getioopt',
  'getalignoff',
  'getmaxsect',
  'getsize',
  'getsize64',
  'getra',
  'getfra',
];

/** Salt's `disk.dump`: blockdev's answers by option name, the chosen ones only when `args` is given. */
async function dump(
  ctx: ExecContext,
  device: string,
  args: unknown,
): Promise<Record<string, string> | false> {
  const out = await runAll(ctx, `blockdev ${BLOCKDEV_OPTS.map((o) => `--${o}`).join(' ')} ${device}`);
  if (out.retcode !== 0) return false;
  const ret: Record<string, string> = {};
  out.stdout
    .split(/\r\n|\r|\n/)
    .filter((l) => l)
    .forEach((line, i) => {
      if (i < BLOCKDEV_OPTS.length) ret[BLOCKDEV_OPTS[i]!] = line;
    });
  if (!args || (typeof args === 'object' && !Object.keys(args).length)) return ret;
  // a string is iterated by character, as Python iterates it
  const wanted =
    typeof args === 'string' ? [...args] : Array.isArray(args) ? args.map(String) : Object.keys(args);
  const picked: Record<string, string> = {};
  for (const k of wanted) {
    if (!(k in ret)) throw new SALT_ERR_EXEC_VALUE(`KeyError: '${k}'`);
    picked[k] = ret[k]!;
  }
  return picked;
}

const TUNE_MAP: Readonly<Record<string, string>> = {
  'read-ahead': 'setra',
  'filesystem-read-ahead': 'setfra',
  'read-only': 'setro',
  'read-write': 'setrw',
};

const pyStr = (v: unknown): string =>
  v === true ? 'True' : v === false ? 'False' : v === null ? 'None' : String(v);

async function tune(ctx: ExecContext, device: string, kwargs: Record<string, unknown>) {
  let opts = '';
  const args: string[] = [];
  const invalid: string[] = [];
  for (const [key, value] of Object.entries(kwargs)) {
    if (key.startsWith('__')) continue;
    const sw = TUNE_MAP[key];
    if (!sw || ((key === 'read-only' || key === 'read-write') && value !== true && value !== 'True')) {
      invalid.push(`${key}=${pyStr(value)}`);
      continue;
    }
    args.push(key === 'read-write' ? 'getro' : sw.replace('set', 'get'));
    opts += key === 'read-only' || key === 'read-write' ? `--${sw} ` : `--${sw} ${pyStr(value)} `;
  }
  if (invalid.length) throw new SALT_ERR_INVOCATION(`Invalid keyword arguments: ${invalid.join(', ')}`);
  const r = await runAll(ctx, `blockdev ${opts}${device}`);
  if (r.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(r.stderr);
  return dump(ctx, device, args);
}

type HdparmValue = number | string | Record<string, string> | Array<number | string | Record<string, string>>;

/** One disk's `hdparm -<flags>` report parsed as Salt's `hdparms` parses it. */
export function parseHdparm(out: string, disk: string): Record<string, HdparmValue> {
  const data: Record<string, HdparmValue> = {};
  for (const raw of out.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (!line || line === `${disk}:`) continue;
    let key: string;
    let vals: string;
    if (line.includes(':')) {
      [key, vals] = [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)];
      key = key.replace(/ is$/, '');
    } else if (line.includes('=')) {
      [key, vals] = [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)];
    } else continue;
    key = key.trim().toLowerCase().replace(/ /g, '_');
    vals = vals.trim();
    if (/^[0-9]+ \(.*\)/.test(vals)) {
      const parts = vals.split(' ');
      data[key] = [Number(parts[0]), (parts[1] ?? '').replace(/^[()]+|[()]+$/g, '')];
      continue;
    }
    const rvals: Array<number | string | Record<string, string>> = [];
    const valdict: Record<string, string> = {};
    for (const piece of vals.split(/[/,]/)) {
      const val = piece.trim();
      if (/^\s*[-+]?\d+(_\d+)*\s*$/.test(val)) rvals.push(Number(val.replace(/_/g, '')));
      else if (val.includes('=')) {
        const dk = val.slice(0, val.indexOf('=')).trim();
        const dv = val.slice(val.indexOf('=') + 1).trim();
        if (dv) valdict[dk] = dv;
      } else if (val) rvals.push(val);
    }
    if (Object.keys(valdict).length) rvals.push(valdict);
    if (!rvals.length) continue;
    data[key] = rvals.length === 1 ? rvals[0]! : rvals;
  }
  return data;
}

async function hdparms(ctx: ExecContext, disks: unknown, args: unknown) {
  needs('hdparm');
  const flags =
    args === undefined || args === null
      ? 'aAbBcCdgHiJkMmNnQrRuW'
      : Array.isArray(args)
        ? args.join('')
        : String(args);
  const list = Array.isArray(disks) ? disks.map(String) : [String(disks)];
  const out: Record<string, Record<string, HdparmValue>> = {};
  for (let disk of list) {
    if (!disk.startsWith('/dev')) disk = `/dev/${disk}`;
    const cmd = `hdparm -${flags} ${disk}`;
    const r = (await ctx.call('cmd.run_all', [cmd])) as RunAll;
    if (r.retcode !== 0) ctx.log.warn(`${cmd}: ${r.stderr}`);
    out[disk] = parseHdparm(r.stdout, disk);
  }
  return out;
}

async function hpa(ctx: ExecContext, disks: unknown, size: unknown) {
  const info: Record<string, Record<string, number>> = {};
  for (const [disk, data] of Object.entries(await hdparms(ctx, disks, 'N'))) {
    const first = Object.values(data)[0];
    if (first === undefined) throw new SALT_ERR_EXEC_VALUE('StopIteration');
    if (!Array.isArray(first) || first.length !== 3) {
      throw new SALT_ERR_EXEC_VALUE(`ValueError: not enough values to unpack (expected 3)`);
    }
    const [visible, total, status] = first as [number, number, string];
    info[disk] =
      visible === total || String(status).includes('disabled')
        ? { total }
        : { total, visible, hidden: total - visible };
  }
  if (size === undefined || size === null) return info;
  for (const [disk, data] of Object.entries(info)) {
    let sectors: number;
    const s = String(size);
    if (/^\s*[-+]?\d+\s*$/.test(s)) sectors = (data.total ?? 0) - Number(s);
    else if (s.includes('%'))
      sectors = ((100 - Number.parseInt(s.replace(/%/g, ''), 10)) * (data.total ?? 0)) / 100;
    else throw new SALT_ERR_EXEC_VALUE(`invalid literal for int() with base 10: '${s}'`);
    if (sectors <= 0) sectors = data.total ?? 0;
    const cmd = `hdparm --yes-i-know-what-i-am-doing -Np${sectors} ${disk}`;
    const r = (await ctx.call('cmd.run_all', [cmd])) as RunAll;
    if (r.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(`${cmd}: ${r.stderr}`);
  }
  return undefined;
}

/** Salt's int-then-list-of-ints conversion of one smartctl column. */
function smartValue(v: string): number | string | number[] {
  if (/^\s*[-+]?\d+\s*$/.test(v)) return Number(v);
  const parts = v.split(' ');
  return parts.every((p) => /^\s*[-+]?\d+\s*$/.test(p)) ? parts.map(Number) : v;
}

/** `smartctl --attributes` output as Salt reads it: rows by attribute id, columns by header. */
export function parseSmart(
  out: string,
  attributes: unknown,
  values: unknown,
): Record<string, Record<string, unknown>> {
  const lines = out.split(/\r\n|\r|\n/);
  let i = 0;
  let fields: string[] = [];
  for (; i < lines.length; i++) {
    if (lines[i]!.startsWith('ID#')) {
      fields = lines[i]!.trim()
        .split(/\s+/)
        .slice(1)
        .map((k) => k.toLowerCase());
      i++;
      break;
    }
  }
  if (Array.isArray(values)) fields = fields.map((f) => (values.map(String).includes(f) ? f : '_'));
  const ret: Record<string, Record<string, unknown>> = {};
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (!/^[\s]*\d/.test(line)) break;
    const cols = splitMax(line.trim(), fields.length);
    const attr = Number(cols[0]);
    if (Array.isArray(attributes) && !attributes.map(Number).includes(attr)) continue;
    const data: Record<string, unknown> = {};
    fields.forEach((f, j) => {
      if (j + 1 < cols.length) data[f] = cols[j + 1];
    });
    delete data._;
    for (const k of Object.keys(data)) data[k] = smartValue(String(data[k]));
    ret[String(attr)] = data;
  }
  return ret;
}

/** Python's `re.split(r"\s+", s, maxsplit=n)`. */
function splitMax(s: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n) {
    const m = /\s+/.exec(rest);
    if (!m) break;
    out.push(rest.slice(0, m.index));
    rest = rest.slice(m.index + m[0].length);
  }
  out.push(rest);
  return out;
}

const str = (z: typeof import('zod').z) => z.union([z.string(), z.number()]).transform(String);

export const moreDiskFunctions = {
  dump: defineFunction({
    args: (z) => z.object({ device: str(z), args: z.unknown().optional() }),
    doc: `Return all contents of dumpe2fs for a specified device (blockdev's report of it).

CLI Example:

    salt '*' disk.dump /dev/sda1`,
    run: (ctx, a) => dump(ctx, a.device, a.args),
  }),
  tune: defineFunction({
    args: (z) => z.object({ device: str(z) }),
    varkw: true,
    doc: `Set attributes for the specified device.

Valid options are: read-ahead, filesystem-read-ahead, read-only, read-write. For read-only and
read-write, the value must be set to True. See the blockdev(8) manpage.

CLI Example:

    salt '*' disk.tune /dev/sda1 read-ahead=1024 read-write=True`,
    run: (ctx, a, extra) => tune(ctx, a.device, extra.kwargs),
  }),
  wipe: defineFunction({
    args: (z) => z.object({ device: str(z) }),
    doc: `Remove the filesystem information.

CLI Example:

    salt '*' disk.wipe /dev/sda1`,
    run: async (ctx, a) => {
      const r = await runAll(ctx, `wipefs -a ${a.device}`);
      if (r.retcode === 0) return true;
      ctx.log.error(`Error wiping device ${a.device}: ${r.stderr}`);
      return false;
    },
  }),
  resize2fs: defineFunction({
    args: (z) => z.object({ device: str(z) }),
    doc: `Resizes the filesystem.

CLI Example:

    salt '*' disk.resize2fs /dev/sda1`,
    run: async (ctx, a) => ((await runAll(ctx, `resize2fs ${a.device}`)).retcode === 0 ? true : null),
  }),
  format: defineFunction({
    pyName: 'format_',
    args: (z) =>
      z.object({
        device: str(z),
        fs_type: str(z).default('ext4'),
        inode_size: z.unknown().optional(),
        lazy_itable_init: z.unknown().optional(),
        fat: z.unknown().optional(),
        force: z.unknown().default(false),
      }),
    doc: `Format a filesystem onto a device.

device: the device in which to create the new filesystem
fs_type: the type of filesystem to create
inode_size: size of the inodes (ext and xfs filesystems)
lazy_itable_init: mke2fs's lazy_itable_init (ext filesystems)
fat: FAT size option, 12, 16 or 32 (fat or vfat filesystems)
force: force mke2fs or mkfs.xfs to create a filesystem. Dangerous: use it with caution.

CLI Example:

    salt '*' disk.format /dev/sdX1`,
    run: async (ctx, a) => {
      needs('mkfs');
      needs('sync');
      const fs = a.fs_type ?? 'ext4';
      const cmd = ['mkfs', '-t', fs];
      const given = (v: unknown) => v !== undefined && v !== null;
      if (given(a.inode_size)) {
        if (fs.startsWith('ext')) cmd.push('-i', pyStr(a.inode_size));
        else if (fs === 'xfs') cmd.push('-i', `size=${pyStr(a.inode_size)}`);
      }
      if (given(a.lazy_itable_init) && fs.startsWith('ext'))
        cmd.push('-E', `lazy_itable_init=${pyStr(a.lazy_itable_init)}`);
      if ((a.fat === 12 || a.fat === 16 || a.fat === 32) && fs.endsWith('fat')) cmd.push('-F', String(a.fat));
      if (a.force) {
        if (fs.startsWith('ext')) cmd.push('-F');
        else if (fs === 'xfs') cmd.push('-f');
      }
      cmd.push(a.device);
      const mkfs = (await ctx.call('cmd.retcode', [cmd], { ignore_retcode: true })) === 0;
      const sync = (await ctx.call('cmd.retcode', ['sync'], { ignore_retcode: true })) === 0;
      return mkfs && sync;
    },
  }),
  hdparms: defineFunction({
    args: (z) => z.object({ disks: z.unknown(), args: z.unknown().optional() }),
    doc: `Retrieve all info's for all disks, parsed from hdparm's report into a dict.

CLI Example:

    salt '*' disk.hdparms /dev/sda`,
    run: (ctx, a) => hdparms(ctx, a.disks, a.args),
  }),
  hpa: defineFunction({
    args: (z) => z.object({ disks: z.unknown(), size: z.unknown().optional() }),
    doc: `Get/set Host Protected Area settings.

Setting the HPA might clobber your data: be very careful with this on active disks.

CLI Example:

    salt '*' disk.hpa /dev/sda
    salt '*' disk.hpa /dev/sda 5%
    salt '*' disk.hpa /dev/sda 10543256`,
    run: (ctx, a) => hpa(ctx, a.disks, a.size),
  }),
  smart_attributes: defineFunction({
    args: (z) =>
      z.object({ dev: str(z), attributes: z.unknown().optional(), values: z.unknown().optional() }),
    doc: `Fetch SMART attributes.

Providing attributes will deliver only requested attributes; providing values will deliver only
requested values for attributes.

CLI Example:

    salt '*' disk.smart_attributes /dev/sda
    salt '*' disk.smart_attributes /dev/sda attributes=(5,187,188,197,198)`,
    run: async (ctx, a) => {
      const dev = a.dev.startsWith('/dev/') ? a.dev : `/dev/${a.dev}`;
      const r = (await ctx.call('cmd.run_all', [`smartctl --attributes ${dev}`], {
        output_loglevel: 'quiet',
      })) as RunAll;
      if (r.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(r.stderr);
      return parseSmart(r.stdout, a.attributes, a.values);
    },
  }),
  iostat: defineFunction({
    args: (z) =>
      z.object({
        interval: z.unknown().default(1),
        count: z.unknown().default(5),
        disks: z.unknown().optional(),
      }),
    doc: `Gather and return (averaged) IO stats.

CLI Example:

    salt '*' disk.iostat 1 5 disks=sda`,
    run: async (ctx, a) => {
      needs('iostat');
      const [i, c] = [pyStr(a.interval), pyStr(a.count)];
      const d = a.disks;
      const cmd =
        d === undefined || d === null
          ? `iostat -x ${i} ${c} `
          : typeof d === 'string'
            ? `iostat -xd ${i} ${c} ${d}`
            : `iostat -xd ${i} ${c} ${(Array.isArray(d) ? d : Object.keys(d as object)).map(String).join(' ')}`;
      const out = String(await ctx.call('cmd.run_stdout', [cmd], { output_loglevel: 'quiet' }));
      try {
        return parseIostat(out);
      } catch (err) {
        throw new SALT_ERR_EXEC_VALUE((err as Error).message);
      }
    },
  }),
  get_fstype_from_path: defineFunction({
    args: (z) => z.object({ path: str(z) }),
    doc: `Return the filesystem type of the underlying device for a specified path.

CLI Example:

    salt '*' disk.get_fstype_from_path /root`,
    run: async (ctx, a) => {
      const dev = await ctx.call('mount.get_device_from_path', [a.path]);
      return ctx.call('disk.fstype', [dev === null || dev === undefined ? 'None' : dev]);
    },
  }),
};
