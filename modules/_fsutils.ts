/**
 * What Salt's `salt/utils/fsutils.py` gives the btrfs and xfs modules: a command's result
 * turned into an error when it failed, the mounted file systems from `/proc/mounts`, the
 * devices `blkid -o export` lists, and whether a path is a block device (by `file -i`).
 */
import { readFileSync } from 'node:fs';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';

/** `cmd.run_all`'s return. */
export interface RunAll {
  pid?: number;
  retcode: number;
  stdout: string;
  stderr: string;
}

/** Runs `cmd` through `cmd.run_all` as Salt's modules do (a string is split, not shelled). */
export async function runAll(ctx: ExecContext, cmd: string | readonly string[]): Promise<RunAll> {
  const out = (await ctx.call('cmd.run_all', [cmd])) as Partial<RunAll>;
  return { ...out, retcode: out.retcode ?? 0, stdout: out.stdout ?? '', stderr: out.stderr ?? '' };
}

/** Raises the command's stderr when it failed and said why. */
export function verifyRun(out: RunAll): void {
  if (out.retcode && out.stderr) throw new SALT_ERR_EXEC_COMMAND(out.stderr);
}

/** `runAll` then `verifyRun`. */
export async function runChecked(ctx: ExecContext, cmd: string | readonly string[]): Promise<RunAll> {
  const out = await runAll(ctx, cmd);
  verifyRun(out);
  return out;
}

/** One mount of a device: where, its options, and its type when all types were asked for. */
export interface MountEntry {
  mount_point: string;
  options: string[];
  type?: string;
}

/** The lines of `/proc/mounts`, split into their six fields. */
export function procMounts(): string[][] {
  return readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.trim().split(' '));
}

/** Mounted file systems by device, each device's mounts in `/proc/mounts` order. */
export function getMounts(fsType?: string): Record<string, MountEntry[]> {
  const mounts: Record<string, MountEntry[]> = {};
  for (const [device = '', mountPoint = '', type = '', options = ''] of procMounts()) {
    if (fsType && type !== fsType) continue;
    const entry: MountEntry = { mount_point: mountPoint, options: options.split(',') };
    if (!fsType) entry.type = type;
    mounts[device] ??= [];
    mounts[device].push(entry);
  }
  return mounts;
}

/** The `KEY=value` blocks of `blkid -o export`, keys lower-cased, one record per block. */
export function blkidBlocks(out: string): Record<string, string>[] {
  const blocks: Record<string, string>[] = [];
  for (const block of out.split('\n\n').filter((b) => b.trim())) {
    const dev: Record<string, string> = {};
    for (const item of block
      .trim()
      .split('\n')
      .filter((l) => l.trim())) {
      const at = item.indexOf('=');
      if (at < 0) throw new SALT_ERR_EXEC_COMMAND(`Unexpected blkid output line: ${item}`);
      dev[item.slice(0, at).toLowerCase()] = item.slice(at + 1);
    }
    blocks.push(dev);
  }
  return blocks;
}

/** Devices by name; with `fsType`, only that type (the type key dropped) and each one's mounts. */
export function blkidOutput(out: string, fsType?: string): Record<string, Record<string, unknown>> {
  const data: Record<string, Record<string, unknown>> = {};
  for (const dev of blkidBlocks(out)) {
    if (fsType && dev.type !== fsType) continue;
    const { devname = 'None', ...rest } = dev;
    if (fsType) delete rest.type;
    data[devname] = rest;
  }
  if (fsType) {
    const mounts = getMounts(fsType);
    for (const [device, list] of Object.entries(mounts)) {
      const known = data[device];
      if (known) known.mounts = list;
    }
  }
  return data;
}

/** Whether `file -i` calls `path` a block device. */
export async function isDevice(ctx: ExecContext, path: string): Promise<boolean> {
  const out = await runChecked(ctx, `file -i ${path}`);
  return out.stdout.split(/\s+/)[1]?.slice(0, -1) === 'inode/blockdevice';
}
