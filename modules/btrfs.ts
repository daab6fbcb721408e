/**
 * Salt's `btrfs` execution module (`salt/modules/btrfs.py`): btrfs-progs' version, file system
 * show/usage/defragment/resize, mkfs and its features, ext→btrfs conversion, adding and removing
 * devices, properties, and the subvolume functions (in `_btrfs-subvolume.ts`). Every command
 * goes through `cmd.run_all` as Salt's does, and a failing one raises its stderr.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { convertToBtrfs } from './_btrfs-convert.js';
import { parseInfo, parsePropList, parseUsage } from './_btrfs-parse.js';
import { btrfsRestripe } from './_btrfs-restripe.js';
import { subvolumeFunctions } from './_btrfs-subvolume.js';
import { blkidOutput, getMounts, isDevice, runAll, runChecked } from './_fsutils.js';

const cli = (ex: string): string => `\n\nCLI Example:\n\n    ${ex}`;

/** `btrfs filesystem show` of a device or mount point. */
export async function btrfsInfo(ctx: ExecContext, device: string): Promise<Record<string, unknown>> {
  return parseInfo((await runChecked(ctx, `btrfs filesystem show ${device}`)).stdout);
}

/** Defragments one mount point (or, for a path that is none, that path's range). */
async function defragmentOne(ctx: ExecContext, mountPoint: string): Promise<Record<string, unknown>> {
  const out = await runAll(ctx, `btrfs filesystem defragment -f ${mountPoint}`);
  return { mount_point: mountPoint, passed: !out.stderr, log: out.stderr || false, range: false };
}

async function defragment(ctx: ExecContext, path: string): Promise<Record<string, unknown>[]> {
  const device = await isDevice(ctx, path);
  const mounts = getMounts('btrfs');
  const mounted = mounts[path];
  if (device) {
    if (!mounted?.length) throw new SALT_ERR_EXEC_COMMAND(`Device "${path}" is not mounted`);
    const result = [];
    for (const m of mounted) result.push(await defragmentOne(ctx, m.mount_point));
    return result;
  }
  const isMountPoint = Object.values(mounts).some((list) => list.some((m) => m.mount_point === path));
  const res = await defragmentOne(ctx, path);
  if (!isMountPoint) {
    if (!res.passed && String(res.log).includes('range ioctl not supported'))
      res.log = 'Range ioctl defragmentation is not supported in this kernel.';
    res.mount_point = false;
    res.range = existsSync(path) ? path : false;
  }
  return [res];
}

async function features(ctx: ExecContext): Promise<Record<string, string>> {
  const out = await runChecked(ctx, 'mkfs.btrfs -O list-all');
  const ret: Record<string, string> = {};
  for (const line of out.stderr.split('\n').map((l) => l.replace(/\s+/g, ' '))) {
    const at = line.indexOf(' - ');
    if (at >= 0) ret[line.slice(0, at)] = line.slice(at + 3);
  }
  return ret;
}

const MKFS_OPTIONS: readonly [string, string][] = [
  ['-l', 'leafsize'],
  ['-L', 'label'],
  ['-O', 'fts'],
  ['-A', 'allocsize'],
  ['-b', 'bytecount'],
  ['-n', 'nodesize'],
  ['-s', 'sectorsize'],
];

async function mkfs(
  ctx: ExecContext,
  devices: string[],
  kw: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!devices.length) throw new SALT_ERR_EXEC_COMMAND('No devices specified');
  const mounts = getMounts('btrfs');
  for (const device of devices)
    if (mounts[device]?.length) throw new SALT_ERR_EXEC_COMMAND(`Device "${device}" should not be mounted`);
  const cmd = ['mkfs.btrfs'];
  const single = devices.length === 1;
  if (pyTruthy(kw.dto)) cmd.push(`-d ${single ? 'single' : pyStr(kw.dto)}`);
  if (pyTruthy(kw.mto)) cmd.push(`-m ${single ? 'single' : pyStr(kw.mto)}`);
  for (const [flag, option] of MKFS_OPTIONS) {
    let value = kw[option];
    if (option === 'label' && option in kw) value = `'${pyStr(value)}'`;
    if (pyTruthy(value)) cmd.push(`${flag} ${pyStr(value)}`);
  }
  if (pyTruthy(kw.uuid)) cmd.push(`-U ${kw.uuid === true ? randomUUID() : pyStr(kw.uuid)}`);
  if (pyTruthy(kw.nodiscard)) cmd.push('-K');
  if (!pyTruthy(kw.noforce)) cmd.push('-f');
  cmd.push(...devices);
  const out = await runChecked(ctx, cmd.join(' '));
  return { log: out.stdout, ...(await btrfsInfo(ctx, devices[0] ?? '')) };
}

const SIZE_HELP = 'Expected: [+/-]<newsize>[kKmMgGtTpPeE]|max';

async function resize(ctx: ExecContext, mountpoint: string, size: string): Promise<Record<string, unknown>> {
  if (size === 'max') {
    if (!(await isDevice(ctx, mountpoint)))
      throw new SALT_ERR_EXEC_COMMAND(`Mountpoint "${mountpoint}" should be a valid device`);
    if (!getMounts('btrfs')[mountpoint]?.length)
      throw new SALT_ERR_EXEC_COMMAND(`Device "${mountpoint}" should be mounted`);
  } else if (
    size.length < 3 ||
    !'-+'.includes(size[0] ?? '') ||
    !'kKmMgGtTpPeE'.includes(size[size.length - 1] ?? '') ||
    /\D/.test(size.slice(1, -1))
  )
    throw new SALT_ERR_EXEC_COMMAND(`Unknown size: "${size}". ${SIZE_HELP}`);
  const out = await runChecked(ctx, `btrfs filesystem resize ${size} ${mountpoint}`);
  return { log: out.stdout, ...(await btrfsInfo(ctx, mountpoint)) };
}

const PROPERTY_TYPES = ['s', 'subvol', 'f', 'filesystem', 'i', 'inode', 'd', 'device'];

async function properties(
  ctx: ExecContext,
  obj: string,
  type: unknown,
  set: unknown,
): Promise<Record<string, unknown> | null> {
  if (pyTruthy(type) && !PROPERTY_TYPES.includes(pyStr(type)))
    throw new SALT_ERR_EXEC_COMMAND(`Unknown property type: "${pyStr(type)}" specified`);
  const cmd = ['btrfs', 'property', pyTruthy(set) ? 'set' : 'list'];
  if (pyTruthy(type)) cmd.push(`-t${pyStr(type)}`);
  cmd.push(obj);
  if (pyTruthy(set)) {
    for (const keyset of pyStr(set).split(',')) {
      const kv = keyset.split('=').map((s) => s.trim());
      if (kv.length !== 2)
        throw new SALT_ERR_EXEC_COMMAND(
          kv.length < 2
            ? `not enough values to unpack (expected 2, got ${kv.length})`
            : 'too many values to unpack (expected 2)',
        );
      cmd.push(...kv);
    }
  }
  const out = await runChecked(ctx, cmd.join(' '));
  if (pyTruthy(set)) return null;
  const ret: Record<string, unknown> = {};
  for (const [prop, description] of Object.entries(parsePropList(out.stdout))) {
    const value = (await runAll(ctx, `btrfs property get ${obj} ${prop}`)).stdout;
    ret[prop] = { description, value: value ? (value.split('=').pop() ?? '') : 'N/A' };
  }
  return ret;
}

const str = (z: typeof import('zod').z) => z.unknown().transform(pyStr);

export default defineModule({
  name: 'btrfs',
  doc: 'Module for managing BTRFS file systems.',
  virtual: (ctx) => ctx.grains.kernel === 'Linux' || { ok: false, reason: 'btrfs: Linux only' },
  functions: {
    version: defineFunction({
      doc: `Return BTRFS version.${cli("salt '*' btrfs.version")}`,
      run: async (ctx) => {
        const out = await runAll(ctx, 'btrfs --version');
        if (out.stderr) throw new SALT_ERR_EXEC_COMMAND(out.stderr);
        const at = out.stdout.indexOf(' ');
        return { version: at < 0 ? out.stdout : out.stdout.slice(at + 1) };
      },
    }),
    info: defineFunction({
      args: (z) => z.object({ device: str(z) }),
      doc: `Get BTRFS filesystem information.${cli("salt '*' btrfs.info /dev/sda1")}`,
      run: (ctx, a) => btrfsInfo(ctx, a.device),
    }),
    devices: defineFunction({
      doc: `Get known BTRFS formatted devices on the system.${cli("salt '*' btrfs.devices")}`,
      run: async (ctx) => blkidOutput((await runChecked(ctx, 'blkid -o export')).stdout, 'btrfs'),
    }),
    defragment: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      doc: `Defragment mounted BTRFS filesystem: given a device, every mount point of it; given a path on the file system, that path. The device must be mounted and writable.${cli("salt '*' btrfs.defragment /dev/sda1")}`,
      run: (ctx, a) => defragment(ctx, a.path),
    }),
    features: defineFunction({
      doc: `List currently available BTRFS features.${cli("salt '*' btrfs.mkfs_features")}`,
      run: (ctx) => features(ctx),
    }),
    usage: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      doc: `Show in which disk the chunks are allocated.${cli("salt '*' btrfs.usage /your/mountpoint")}`,
      run: async (ctx, a) => parseUsage((await runChecked(ctx, `btrfs filesystem usage ${a.path}`)).stdout),
    }),
    mkfs: defineFunction({
      varargs: true,
      varkw: true,
      doc: `Create a file system on the given devices, by default with force. Options: allocsize, bytecount, nodesize, leafsize, label, noforce, sectorsize, nodiscard, uuid (a UUID, or True for a new one), dto and mto (raid0|raid1|raid5|raid6|raid10|single|dup for data and metadata), fts (features, see btrfs.features).${cli("salt '*' btrfs.mkfs /dev/sda1 noforce=True")}`,
      run: (ctx, _a, extra) => mkfs(ctx, extra.args.map(pyStr), extra.kwargs),
    }),
    resize: defineFunction({
      args: (z) => z.object({ mountpoint: str(z), size: str(z) }),
      doc: `Resize filesystem. size: ([+/-]<newsize>[kKmMgGtTpPeE]|max); max needs a mounted device.${cli("salt '*' btrfs.resize /mountpoint size=+1g")}`,
      run: (ctx, a) => resize(ctx, a.mountpoint, a.size),
    }),
    convert: defineFunction({
      args: (z) =>
        z.object({
          device: str(z),
          permanent: z.unknown().default(false),
          keeplf: z.unknown().default(false),
        }),
      doc: `Convert a mounted ext2/3/4 file system to BTRFS. permanent: drop the saved ext image and rebalance; keeplf: keep lost+found.${cli("salt '*' btrfs.convert /dev/sda1 permanent=True")}`,
      run: (ctx, a) => convertToBtrfs(ctx, a.device, pyTruthy(a.permanent), pyTruthy(a.keeplf)),
    }),
    add: defineFunction({
      args: (z) => z.object({ mountpoint: str(z) }),
      varargs: true,
      varkw: true,
      doc: `Add devices to a BTRFS filesystem. Options: nodiscard, force, dc and mc (data and metadata profiles to convert to).${cli("salt '*' btrfs.add /mountpoint /dev/sda1 /dev/sda2")}`,
      run: (ctx, a, extra) => btrfsRestripe(ctx, a.mountpoint, 'add', extra.args.map(pyStr), extra.kwargs),
    }),
    delete: defineFunction({
      args: (z) => z.object({ mountpoint: str(z) }),
      varargs: true,
      varkw: true,
      doc: `Remove devices from a BTRFS filesystem.${cli("salt '*' btrfs.delete /mountpoint /dev/sda1 /dev/sda2")}`,
      run: (ctx, a, extra) => btrfsRestripe(ctx, a.mountpoint, 'delete', extra.args.map(pyStr), extra.kwargs),
    }),
    properties: defineFunction({
      args: (z) => z.object({ obj: str(z), type: z.unknown().default(null), set: z.unknown().default(null) }),
      doc: `List (or with set='key=value,...' set) the properties of a BTRFS object: a device, mount point, or file in the file system. type: s[ubvol], f[ilesystem], i[node] or d[evice].${cli("salt '*' btrfs.properties /dev/sda1 type=subvol set='ro=false'")}`,
      run: (ctx, a) => properties(ctx, a.obj, a.type, a.set),
    }),
    ...subvolumeFunctions,
  },
});
