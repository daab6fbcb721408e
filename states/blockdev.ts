/**
 * Salt's `blockdev` state module (`salt/states/blockdev.py`): `blockdev.tuned` sets a block
 * device's read-ahead and read-only flags through `disk.tune`, `blockdev.formatted` makes a
 * file system on it through `disk.format` unless `blkid` already sees that type. As Salt's,
 * a new file system's `changes` shows the new type as both `old` and `new`.
 */
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pyStr } from '../kernel/util.js';
import { cleanKwargs } from '../modules/_invalid-kwargs.js';
import { which } from '../modules/_which.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

/** The `disk.dump` keys that report each tuned option. */
const REPORTED_BY: Readonly<Record<string, string>> = {
  'read-ahead': 'getra',
  'filesystem-read-ahead': 'getfra',
  'read-only': 'getro',
  'read-write': 'getro',
};

/** What `blkid` says the device's file system is, '' when none. */
async function fsTypeOf(ctx: StateContext, name: string): Promise<string> {
  const out = await ctx.call('cmd.run', [['blkid', '-o', 'value', '-s', 'TYPE', name]], {
    ignore_retcode: true,
  });
  return out ? String(out) : '';
}

const tuned = defineState({
  args: (z) => z.object({ name: z.string() }),
  varkw: true,
  doc: `Manage options of block device

name: the block device.
read-ahead: read-ahead buffer size.
filesystem-read-ahead: file system read-ahead buffer size.
read-only: True to set it read-only.
read-write: True to set it read-write.`,
  async run(ctx, { name }, extra): Promise<StateReturn> {
    const ret: StateReturn = { changes: {}, comment: '', name, result: true };
    const kwargs = cleanKwargs(extra.kwargs);
    if (!(await ctx.call('file.is_blkdev', [name])))
      return { ...ret, result: false, comment: `Changes to ${name} cannot be applied. Not a block device.` };
    if (ctx.test) return { ...ret, result: null, comment: `Changes to ${name} will be applied ` };
    const current = (await ctx.call('disk.dump', [name])) as Record<string, unknown>;
    const changes = (await ctx.call('disk.tune', [name], kwargs)) as Record<string, unknown> | null;
    const changeset: Record<string, string> = {};
    for (const [key, value] of Object.entries(kwargs)) {
      const sw = REPORTED_BY[key];
      if (!sw || !changes || current[sw] === changes[sw]) continue;
      let [old, now]: unknown[] = [current[sw], changes[sw]];
      if (typeof value === 'boolean') [old, now] = [old === '1', now === '1'];
      if (key === 'read-write') [old, now] = [!old, !now];
      changeset[key] = `Changed from ${pyStr(old)} to ${pyStr(now)}`;
    }
    if (!changes || !Object.keys(changes).length)
      return { ...ret, result: false, comment: `Failed to modify block device ${name}` };
    if (!Object.keys(changeset).length)
      return { ...ret, comment: `Block device ${name} already in correct state` };
    return { ...ret, changes: changeset, comment: `Block device ${name} successfully modified ` };
  },
});

const formatted = defineState({
  args: (z) =>
    z.object({ name: z.string(), fs_type: z.string().default('ext4'), force: z.boolean().default(false) }),
  varkw: true,
  doc: `Manage filesystems of partitions.

name: the block device.
fs_type: the file system it must hold (ext4).
force: make it even when the device is no partition (ext and xfs only). Dangerous.`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const { name, fs_type: fsType } = a;
    const ret: StateReturn = {
      changes: {},
      comment: `${name} already formatted with ${fsType}`,
      name,
      result: false,
    };
    if (!existsSync(name)) return { ...ret, comment: `${name} does not exist` };
    if ((await fsTypeOf(ctx, name)) === fsType) return { ...ret, result: true };
    if (!which(`mkfs.${fsType}`)) return { ...ret, comment: `Invalid fs_type: ${fsType}` };
    if (ctx.test) return { ...ret, result: null, comment: `Changes to ${name} will be applied ` };
    const kwargs = cleanKwargs(extra.kwargs);
    await ctx.call('disk.format', [name, fsType], { ...kwargs, force: a.force });
    // blkid can lag behind mkfs: look again, up to 10 times, 3 s apart while it sees nothing
    for (let i = 0; i < 10; i++) {
      ctx.log.info(`Check blk fstype attempt ${i + 1} of 10`);
      const now = await fsTypeOf(ctx, name);
      if (now === fsType)
        return {
          ...ret,
          result: true,
          comment: `${name} has been formatted with ${fsType}`,
          changes: { new: fsType, old: now },
        };
      if (now !== '') break;
      ctx.log.info('Waiting 3s before next check');
      await sleep(3000);
    }
    return { ...ret, comment: `Failed to format ${name}` };
  },
});

export default defineStateModule({
  name: 'blockdev',
  doc: 'Management of block devices: file systems and blockdev(8) options.',
  functions: { tuned, formatted },
});
