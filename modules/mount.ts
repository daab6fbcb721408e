/**
 * Salt's `mount` execution module (`salt/modules/mount.py`) on Linux: the active mounts (from
 * /proc/self/mounts or, extended, /proc/self/mountinfo with blkid's UUIDs and labels), the
 * fstab entries, and mount/umount/remount through the programs as argv.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { readMountCache, writeMountCache } from './_mount-cache.js';
import { pathMountFunctions } from './_mount-fns-path.js';
import { rmFstab, setFstab } from './_mount-fstab.js';
import { isTrue, tableMountFunctions } from './_mount-tables.js';
import { pySplit, readProc, runProgram } from './_status-proc.js';
import { isMapping } from './_traverse.js';

/** `mount -l`: mount point → device as the program names it. */
async function listMounts(): Promise<Record<string, string>> {
  const ret: Record<string, string> = {};
  for (const line of (await runProgram(['mount', '-l'])).stdout.split('\n')) {
    const c = pySplit(line);
    if (c.length >= 3) ret[c[2]!] = c[0]!;
  }
  return ret;
}

/** The id of a user or group name from /etc/passwd or /etc/group, or undefined. */
function idOf(file: string, name: string): string | undefined {
  try {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const f = line.split(':');
      if (f[0] === name) return f[2];
    }
  } catch {}
  return undefined;
}

/** Salt's `_resolve_user_group_names`: `uid=`/`gid=` names become ids; `\040` shows as `\ `. */
function resolveNames(opts: string[]): string[] {
  return opts.map((opt) => {
    let out = opt;
    const [param, given] = opt.split('=');
    if ((param === 'uid' || param === 'gid') && given !== undefined) {
      const id = /^[0-9]+$/.test(given)
        ? given
        : (idOf(param === 'uid' ? '/etc/passwd' : '/etc/group', given) ?? given);
      out = `${param}=${id}`;
    }
    return out.replace(/\\040/g, '\\ ');
  });
}

async function blkidOf(ctx: ExecContext): Promise<Record<string, unknown>> {
  if (!ctx.cache.has('disk.blkid')) {
    let got: unknown = {};
    try {
      got = await ctx.call('disk.blkid');
    } catch {}
    ctx.cache.set('disk.blkid', isMapping(got) ? got : {});
  }
  return ctx.cache.get('disk.blkid') as Record<string, unknown>;
}

export async function activeMounts(ctx: ExecContext, extended = false): Promise<Record<string, unknown>> {
  const list = await listMounts();
  const ret: Record<string, unknown> = {};
  const info = extended ? readProc('/proc/self/mountinfo') : undefined;
  if (info !== undefined) {
    const blkid = await blkidOf(ctx);
    for (const line of info.split('\n')) {
      const c = pySplit(line);
      if (c.length < 7) continue;
      const device = c[2]!.split(':');
      const sep = c.indexOf('-');
      const name = c[sep + 2] ?? '';
      const b = name && isMapping(blkid[name]) ? (blkid[name] as Record<string, unknown>) : {};
      ret[c[4]!] = {
        mountid: c[0],
        parentid: c[1],
        major: device[0],
        minor: device[1],
        root: c[3],
        opts: resolveNames(c[5]!.split(',')),
        fstype: c[sep + 1],
        device: name.replace(/\\040/g, '\\ '),
        alt_device: list[c[4]!] ?? null,
        superopts: resolveNames((c[sep + 3] ?? '').split(',')),
        device_uuid: typeof b.UUID === 'string' ? b.UUID.toLowerCase() : null,
        device_label: typeof b.LABEL === 'string' ? b.LABEL : null,
      };
    }
    return ret;
  }
  const text = readProc('/proc/self/mounts');
  if (text === undefined) throw new SALT_ERR_EXEC_COMMAND('File not readable /proc/self/mounts');
  for (const line of text.split('\n')) {
    const c = pySplit(line);
    if (c.length < 4) continue;
    ret[c[1]!] = {
      device: c[0],
      alt_device: list[c[1]!] ?? null,
      fstype: c[2],
      opts: resolveNames(c[3]!.split(',')),
    };
  }
  return ret;
}

const FSTAB_KEYS = ['device', 'name', 'fstype', 'opts', 'dump', 'pass'] as const;

export function readFstab(config = '/etc/fstab'): Record<string, unknown> {
  const ret: Record<string, unknown> = {};
  try {
    if (!statSync(config).isFile()) return ret;
  } catch {
    return ret;
  }
  for (const line of readFileSync(config, 'utf8').split('\n')) {
    if (line.startsWith('#')) continue;
    const c = pySplit(line);
    if (c.length < 4 || c.length > 6) continue;
    while (c.length < 6) c.push('0');
    const entry: Record<string, unknown> = Object.fromEntries(FSTAB_KEYS.map((k, i) => [k, c[i]]));
    entry.opts = String(entry.opts).split(',');
    let name = String(entry.name);
    while (Object.hasOwn(ret, name)) name += '_';
    delete entry.name;
    ret[name] = entry;
  }
  return ret;
}

function optsList(opts: unknown): string[] | null {
  if (opts === null) return null;
  if (Array.isArray(opts)) return opts.map(String);
  return String(opts ?? 'defaults').split(',');
}

async function doMount(name: string, device: unknown, mkmnt: boolean, fstype: string, opts: string[] | null) {
  if (!existsSync(name) && mkmnt) mkdirSync(name, { recursive: true, mode: 0o755 });
  const argv = ['mount'];
  if (device) {
    if (opts !== null) argv.push('-o', opts.join(','));
    if (fstype) argv.push('-t', fstype);
    argv.push(String(device), name);
  } else argv.push(name);
  const out = await runProgram(argv);
  return out.retcode ? out.stderr.replace(/\n$/, '') : true;
}

/** `/proc/swaps`: swap file or device → its type, size, used and priority (as text). */
function swaps(): Record<string, Record<string, string>> {
  const ret: Record<string, Record<string, string>> = {};
  for (const line of (readProc('/proc/swaps') ?? '').split('\n')) {
    if (line.startsWith('Filename')) continue;
    const c = pySplit(line);
    if (c.length < 5) continue;
    ret[c[0]!] = { type: c[1]!, size: c[2]!, used: c[3]!, priority: c[4]! };
  }
  return ret;
}

/** mount's and remount's arguments: remount requires `device`, mount defaults it to False. */
const mountArgs = (z: typeof import('zod').z, deviceRequired: boolean) => ({
  name: z.string(),
  device: deviceRequired ? z.unknown() : z.unknown().default(false),
  mkmnt: z.unknown().default(false),
  fstype: z.string().default(''),
  opts: z.unknown().default('defaults'),
  user: z.string().nullable().optional(),
});

export default defineModule({
  name: 'mount',
  doc: 'Salt module to manage Unix mounts and the fstab file.',
  virtual: () =>
    process.platform === 'win32'
      ? { ok: false, reason: 'The mount module cannot be loaded: not a POSIX-like system.' }
      : true,
  functions: {
    active: defineFunction({
      args: (z) => z.object({ extended: z.unknown().default(false) }),
      doc: `List the active mounts.

extended: read /proc/self/mountinfo for ids, root, super options and blkid's UUID and label.

CLI Example:

    salt '*' mount.active`,
      run: (ctx, a) => activeMounts(ctx, a.extended === true),
    }),
    fstab: defineFunction({
      args: (z) => z.object({ config: z.string().default('/etc/fstab') }),
      doc: `List the contents of the fstab.

CLI Example:

    salt '*' mount.fstab`,
      run: (_ctx, a) => readFstab(a.config ?? '/etc/fstab'),
    }),
    is_mounted: defineFunction({
      args: (z) => z.object({ name: z.string() }),
      doc: `Provide information if the path is mounted.

CLI Example:

    salt '*' mount.is_mounted /mnt/share`,
      run: async (ctx, a) => Object.hasOwn(await activeMounts(ctx), a.name),
    }),
    mount: defineFunction({
      args: (z) => z.object({ ...mountArgs(z, false), util: z.string().default('mount') }),
      doc: `Mount a device.

CLI Example:

    salt '*' mount.mount /mnt/foo /dev/sdz1 True`,
      run: async (_ctx, a): Promise<string | boolean> => {
        if (a.util !== 'mount') return false;
        return doMount(a.name, a.device ?? false, a.mkmnt === true, a.fstype ?? '', optsList(a.opts));
      },
    }),
    remount: defineFunction({
      args: (z) => z.object(mountArgs(z, true)),
      doc: `Attempt to remount a device, if the device is not already mounted, mount is called.

CLI Example:

    salt '*' mount.remount /mnt/foo /dev/sdz1 True`,
      run: async (ctx, a) => {
        const opts = optsList(a.opts) ?? [];
        const mounts = await activeMounts(ctx);
        if (!Object.hasOwn(mounts, a.name)) {
          return doMount(a.name, a.device, a.mkmnt === true, a.fstype ?? '', opts);
        }
        if (!opts.includes('remount')) opts.push('remount');
        const argv = ['mount'];
        if (opts.length) argv.push('-o', opts.join(','));
        if (a.fstype) argv.push('-t', a.fstype);
        argv.push(String(a.device ?? ''), a.name);
        const out = await runProgram(argv);
        return out.retcode ? out.stderr.replace(/\n$/, '') : true;
      },
    }),
    umount: defineFunction({
      args: (z) =>
        z.object({
          name: z.string(),
          device: z.string().nullable().optional(),
          user: z.string().nullable().optional(),
          util: z.string().default('mount'),
        }),
      doc: `Attempt to unmount a device by specifying the directory it is mounted on.

CLI Example:

    salt '*' mount.umount /mnt/foo`,
      run: async (ctx, a) => {
        const mounts = await activeMounts(ctx);
        if (!Object.hasOwn(mounts, a.name)) return `${a.name} does not have anything mounted`;
        const out = await runProgram(['umount', a.device || a.name]);
        return out.retcode ? out.stderr.replace(/\n$/, '') : true;
      },
    }),
    swaps: defineFunction({
      doc: `Return a dict containing information on active swap.

CLI Example:

    salt '*' mount.swaps`,
      run: () => swaps(),
    }),
    swapon: defineFunction({
      args: (z) => z.object({ name: z.string(), priority: z.unknown().optional() }),
      doc: `Activate a swap disk; returns its stats and whether it was newly activated.

CLI Example:

    salt '*' mount.swapon /root/swapfile`,
      run: async (_ctx, a) => {
        const before = swaps();
        if (Object.hasOwn(before, a.name)) return { stats: before[a.name], new: false };
        const argv = ['swapon', a.name];
        if (a.priority !== undefined && a.priority !== null && a.priority !== '' && a.priority !== 0)
          argv.push('-p', String(a.priority));
        await runProgram(argv);
        const after = swaps();
        return Object.hasOwn(after, a.name) ? { stats: after[a.name], new: true } : {};
      },
    }),
    swapoff: defineFunction({
      args: (z) => z.object({ name: z.string() }),
      doc: `Deactivate a named swap mount: true, false when it stays active, None when it was not.

CLI Example:

    salt '*' mount.swapoff /root/swapfile`,
      run: async (_ctx, a) => {
        if (!Object.hasOwn(swaps(), a.name)) return null;
        await runProgram(['swapoff', a.name]);
        return !Object.hasOwn(swaps(), a.name);
      },
    }),
    set_fstab: defineFunction({
      args: (z) =>
        z.object({
          name: z.string(),
          device: z.string(),
          fstype: z.string(),
          opts: z.unknown().default('defaults'),
          dump: z.unknown().default(0),
          pass_num: z.unknown().default(0),
          config: z.string().default('/etc/fstab'),
          test: z.unknown().default(false),
          match_on: z.unknown().default('auto'),
          not_change: z.unknown().default(false),
        }),
      varkw: true, // Salt's **kwargs: other keywords are taken and ignored
      doc: `Verify that this mount is represented in the fstab, change the mount to match the data passed, or add the mount if it is not present: "present", "change" or "new".

CLI Example:

    salt '*' mount.set_fstab /mnt/foo /dev/sdz1 ext4`,
      run: (_ctx, a) => setFstab({ ...a, test: isTrue(a.test), not_change: pyTruthy(a.not_change) }),
    }),
    rm_fstab: defineFunction({
      args: (z) =>
        z.object({ name: z.string(), device: z.unknown(), config: z.string().default('/etc/fstab') }),
      doc: `Remove the mount point from the fstab.

CLI Example:

    salt '*' mount.rm_fstab /mnt/foo /dev/sdg`,
      run: (_ctx, a) => rmFstab(a.name, a.device, a.config),
    }),
    read_mount_cache: defineFunction({
      args: (z) => z.object({ name: z.string() }),
      doc: `Return the mount information for name from the mount cache.

CLI Example:

    salt '*' mount.read_mount_cache /mnt/share`,
      run: (ctx, a) => {
        const mounts = readMountCache(ctx).mounts;
        return mounts && isMapping(mounts) && Object.hasOwn(mounts, a.name) ? mounts[a.name] : {};
      },
    }),
    write_mount_cache: defineFunction({
      args: (z) =>
        z.object({
          real_name: z.string(),
          device: z.unknown(),
          mkmnt: z.unknown(),
          fstype: z.unknown(),
          mount_opts: z.unknown(),
        }),
      doc: `Write the mount cache for a given device.

CLI Example:

    salt '*' mount.write_mount_cache /mnt/share /dev/sda1 False ext4 defaults,nosuid`,
      run: (ctx, a) => {
        const cache = readMountCache(ctx);
        const mounts = isMapping(cache.mounts) ? cache.mounts : {};
        mounts[a.real_name] = { device: a.device, fstype: a.fstype, mkmnt: a.mkmnt, opts: a.mount_opts };
        if (writeMountCache(ctx, { ...cache, mounts })) return true;
        throw new SALT_ERR_EXEC_COMMAND('Unable to write mount cache.');
      },
    }),
    delete_mount_cache: defineFunction({
      args: (z) => z.object({ real_name: z.string() }),
      doc: `Remove a mount point from the mount cache.

CLI Example:

    salt '*' mount.delete_mount_cache /mnt/share`,
      run: (ctx, a) => {
        const cache = readMountCache(ctx);
        if (isMapping(cache.mounts) && Object.hasOwn(cache.mounts, a.real_name)) {
          delete cache.mounts[a.real_name];
          if (!writeMountCache(ctx, cache)) throw new SALT_ERR_EXEC_COMMAND('Unable to write mount cache.');
        }
        return true;
      },
    }),
    ...pathMountFunctions,
    ...tableMountFunctions,
  },
});
