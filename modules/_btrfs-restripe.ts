/**
 * `btrfs.add` / `btrfs.delete`: adds devices to, or removes them from, the BTRFS file system
 * mounted on a mount point, rebalancing after an add, as Salt's `_restripe`.
 */
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { getMounts, isDevice, runChecked } from './_fsutils.js';

export async function btrfsRestripe(
  ctx: ExecContext,
  mountpoint: string,
  direction: 'add' | 'delete',
  devices: string[],
  kw: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (await isDevice(ctx, mountpoint))
    throw new SALT_ERR_EXEC_COMMAND(`Mountpount expected, while device "${mountpoint}" specified`);
  const mounted = Object.values(getMounts('btrfs')).some((l) => l.some((m) => m.mount_point === mountpoint));
  if (!mounted) throw new SALT_ERR_EXEC_COMMAND(`No BTRFS device mounted on "${mountpoint}" mountpoint`);
  if (!devices.length) throw new SALT_ERR_EXEC_COMMAND('No devices specified.');
  const known = (await ctx.call('btrfs.devices')) as Record<string, unknown>;
  for (const device of devices)
    if (!(device in known)) throw new SALT_ERR_EXEC_COMMAND(`Device "${device}" is not recognized`);
  const cmd = [`btrfs device ${direction}`, ...devices];
  if (direction === 'add') {
    if (pyTruthy(kw.nodiscard)) cmd.push('-K');
    if (pyTruthy(kw.force)) cmd.push('-f');
  }
  cmd.push(mountpoint);
  const log: string[] = [];
  const out = await runChecked(ctx, cmd.join(' '));
  if (out.stdout) log.push(out.stdout);
  if (direction === 'add') {
    const balance =
      pyTruthy(kw.dc) && pyTruthy(kw.mc)
        ? `btrfs balance start -dconvert=${pyStr(kw.dc)} -mconvert=${pyStr(kw.mc)} ${mountpoint}`
        : `btrfs filesystem balance ${mountpoint}`;
    const bal = await runChecked(ctx, balance);
    if (bal.stdout) log.push(bal.stdout);
  }
  const info = (await ctx.call('btrfs.info', [mountpoint])) as Record<string, unknown>;
  return { ...(log.length ? { log: log.join('\n') } : {}), ...info };
}
