/**
 * `btrfs.convert`: turns a mounted ext2/3/4 file system into BTRFS with `btrfs-convert`
 * (unmount, fsck report, convert, mount again), then keeps or drops the saved ext image
 * and lost+found, as Salt's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { blkidOutput, getMounts, runAll, runChecked } from './_fsutils.js';

const FSCK_STATUS: Readonly<Record<number, string>> = {
  0: 'No errors',
  1: 'Filesystem errors corrected',
  2: 'System should be rebooted',
  4: 'Filesystem errors left uncorrected',
  8: 'Operational error',
  16: 'Usage or syntax error',
  32: 'Fsck canceled by user request',
  128: 'Shared-library error',
};

const ROOT_REFUSAL = `One does not simply converts a root filesystem!

Converting an extended root filesystem to BTRFS is a careful
and lengthy process, among other steps including the following
requirements:

  1. Proper verified backup.
  2. System outage.
  3. Offline system access.

For further details, please refer to your OS vendor
documentation regarding this topic.
`;

async function typeOf(ctx: ExecContext, device: string): Promise<unknown> {
  const devices = blkidOutput((await runChecked(ctx, 'blkid -o export')).stdout);
  return devices[device]?.type;
}

export async function convertToBtrfs(
  ctx: ExecContext,
  device: string,
  permanent: boolean,
  keeplf: boolean,
): Promise<Record<string, unknown>> {
  const devices = blkidOutput((await runChecked(ctx, 'blkid -o export')).stdout);
  const found = devices[device];
  if (!found) throw new SALT_ERR_EXEC_COMMAND(`The device "${device}" was is not found.`);
  const type = String(found.type);
  if (!['ext2', 'ext3', 'ext4'].includes(type))
    throw new SALT_ERR_EXEC_COMMAND(`The device "${device}" is a "${type}" file system.`);
  const mountpoint = getMounts(type)[device]?.[0]?.mount_point ?? null;
  if (mountpoint === '/') throw new SALT_ERR_EXEC_COMMAND(ROOT_REFUSAL);
  await runChecked(ctx, `umount ${device}`);
  const fsck = (await runAll(ctx, `fsck -f -n ${device}`)).retcode;
  const ret: Record<string, Record<string, unknown>> = {
    before: { fsck_status: FSCK_STATUS[fsck] ?? 'Unknown error', mount_point: mountpoint, type },
  };
  await runChecked(ctx, `btrfs-convert ${device}`);
  await runChecked(ctx, `mount ${device} ${mountpoint}`);
  const after: Record<string, unknown> = {
    fsck_status: 'N/A',
    mount_point: mountpoint,
    type: await typeOf(ctx, device),
  };
  ret.after = after;
  const image = `${mountpoint}/ext2_saved`;
  if (!existsSync(image))
    throw new SALT_ERR_EXEC_COMMAND(`BTRFS migration went wrong: the image "${image}" not found!`);
  if (!permanent) {
    after[`${type}_image`] = image;
    after[`${type}_image_info`] = execFileSync('file', [`${image}/image`], { encoding: 'utf8' }).trim();
  } else {
    after[`${type}_image`] = 'removed';
    after[`${type}_image_info`] = 'N/A';
    await runChecked(ctx, `btrfs subvolume delete ${image}`);
    after.balance_log = (await runChecked(ctx, `btrfs filesystem balance ${mountpoint}`)).stdout;
  }
  const lostFound = `${mountpoint}/lost+found`;
  if (existsSync(lostFound) && !keeplf) await runChecked(ctx, `rm -rf ${lostFound}`);
  return ret;
}
