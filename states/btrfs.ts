/**
 * Salt's `btrfs` state module (`salt/states/btrfs.py`): `subvolume_created`,
 * `subvolume_deleted` and `properties`. Given a device, each mounts it on a fresh temporary
 * folder (`mount.mounted`), works below it and unmounts it again (Salt's `__mount_device`).
 * Comments are lists, and `subvolume_deleted` removes only a subvolume that is missing, both
 * as Salt 3006's.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyRepr, pyStr } from '../kernel/util.js';
import { cleanKwargs } from '../modules/_invalid-kwargs.js';
import { pythonError } from '../modules/_py-exception.js';
import {
  defineState,
  defineStateModule,
  pyShortName,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

type Z = typeof import('zod').z;
type Action = (dest: string | null) => Promise<StateReturn>;

/** Python's `repr()` of an exception raised inside an action, as Salt's JSON shows it. */
function excRepr(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return `${err instanceof Error ? pyShortName(err) : 'Exception'}(${pyRepr(msg)})`;
}

async function unmountTemp(ctx: StateContext, dest: string): Promise<void> {
  await ctx.state('mount.unmounted', { name: dest });
  rmSync(dest, { recursive: true, force: true });
}

/** Salt's `__mount_device`: runs `action` below a temporary mount of `device` when one is given. */
async function withDevice(
  ctx: StateContext,
  name: string,
  device: unknown,
  useDefault: boolean,
  action: Action,
): Promise<StateReturn> {
  const ret: StateReturn = {
    name,
    result: false,
    changes: {},
    comment: ['Some error happends during the operation.'],
  };
  const comment = ret.comment as string[];
  let dest: string | null = null;
  let out: StateReturn;
  try {
    if (device) {
      dest = mkdtempSync(path.join(tmpdir(), 'tmp'));
      const res = await ctx.state('mount.mounted', {
        name: dest,
        device: pyStr(device),
        fstype: 'btrfs',
        opts: useDefault ? 'defaults' : 'subvol=/',
        persist: false,
      });
      if (!res.result) {
        ctx.log.error(`Cannot mount device ${pyStr(device)} in ${dest}`);
        await unmountTemp(ctx, dest);
        dest = null;
        comment.push(`Device ${pyStr(device)} cannot be mounted`);
      }
    }
    out = await action(dest);
  } catch (err) {
    ctx.log.error(
      `Exception raised while mounting device: ${err instanceof Error ? err.message : String(err)}`,
    );
    comment.push(excRepr(err));
    out = ret;
  }
  if (device) {
    // Salt's cleanup also runs after a failed mount, with no folder, and raises there
    if (dest === null)
      throw pythonError('TypeError', 'lstat: path should be string, bytes or os.PathLike, not NoneType');
    await unmountTemp(ctx, dest);
  }
  return out;
}

/** A failed return with an empty comment list, and that list. */
function emptyReturn(name: string): { ret: StateReturn; comment: string[] } {
  const comment: string[] = [];
  return { ret: { name, result: false, changes: {}, comment }, comment };
}

/** Python's `os.path.join(dest, name)`, which refuses a missing dest. */
function below(dest: string | null, name: string): string {
  if (dest === null)
    throw pythonError('TypeError', 'expected str, bytes or os.PathLike object, not NoneType');
  return path.posix.join(name.startsWith('/') ? '/' : dest, name);
}

async function subvolumeId(ctx: StateContext, p: string, name: string): Promise<unknown> {
  const show = (await ctx.call('btrfs.subvolume_show', [p])) as Record<string, Record<string, unknown>>;
  const entry = show[name];
  if (!entry) throw pythonError('KeyError', name);
  return entry['subvolume id'];
}

const subvolume_created = defineState({
  args: (z: Z) =>
    z.object({
      name: z.unknown().transform(pyStr),
      device: z.unknown(),
      qgroupids: z.unknown().default(null),
      set_default: z.unknown().default(false),
      copy_on_write: z.unknown().default(true),
      force_set_default: z.unknown().default(true),
      __dest: z.unknown().default(null),
    }),
  doc: `Makes sure that a btrfs subvolume is present.

name: the subvolume.
device: the device that holds it.
qgroupids: a list of qgroups to add a new subvolume to.
set_default: make it the default subvolume.
copy_on_write: False to set chattr +C on it.
force_set_default: False to leave the default alone when the subvolume was already there.`,
  run: (ctx, a) =>
    withDevice(ctx, a.name, a.device, false, async (dest) => {
      const { name } = a;
      const { ret, comment } = emptyReturn(name);
      const p = below(dest, name);
      const exists = Boolean(await ctx.call('btrfs.subvolume_exists', [p]));
      if (exists) comment.push(`Subvolume ${name} already present`);
      if (ctx.test) {
        if (!exists) ret.changes[name] = `Subvolume ${name} will be created`;
        return { ...ret, result: null };
      }
      if (!exists) {
        const dir = path.dirname(p);
        const res = await ctx.state('file.directory', { name: dir, makedirs: true });
        if (!res.result) {
          comment.push(`Error creating ${dir} directory`);
          return ret;
        }
        try {
          await ctx.call('btrfs.subvolume_create', [name], { dest, qgroupids: a.qgroupids });
        } catch (err) {
          if (!(err instanceof SALT_ERR_EXEC_COMMAND)) throw err;
          comment.push(`Error creating subvolume ${name}`);
          return ret;
        }
        ret.changes[name] = `Created subvolume ${name}`;
      }
      if ((!exists || a.force_set_default) && a.set_default) {
        const id = await subvolumeId(ctx, p, name);
        const def = (await ctx.call('btrfs.subvolume_get_default', [dest])) as Record<string, unknown>;
        if (id !== def.id)
          ret.changes[`${name}_default`] = await ctx.call('btrfs.subvolume_set_default', [id, dest]);
      }
      if (!a.copy_on_write) {
        const attrs = (await ctx.call('file.lsattr', [path.dirname(p)])) as Record<string, unknown>;
        const mine = attrs?.[p];
        if (!Array.isArray(mine)) throw pythonError('KeyError', p);
        if (!mine.includes('C'))
          ret.changes[`${name}_no_cow`] = await ctx.call('file.chattr', [p], {
            operator: 'add',
            attributes: 'C',
          });
      }
      return { ...ret, result: true };
    }),
});

const subvolume_deleted = defineState({
  args: (z: Z) =>
    z.object({
      name: z.unknown().transform(pyStr),
      device: z.unknown(),
      commit: z.unknown().default(false),
      __dest: z.unknown().default(null),
    }),
  doc: `Makes sure that a btrfs subvolume is removed.

name: the subvolume.
device: the device that holds it.
commit: wait until the transaction is over.`,
  run: (ctx, a) =>
    withDevice(ctx, a.name, a.device, false, async (dest) => {
      const { name } = a;
      const { ret, comment } = emptyReturn(name);
      const p = below(dest, name);
      const exists = Boolean(await ctx.call('btrfs.subvolume_exists', [p]));
      if (!exists) comment.push(`Subvolume ${name} already missing`);
      if (ctx.test) {
        if (exists) ret.changes[name] = `Subvolume ${name} will be removed`;
        return { ...ret, result: null };
      }
      // As Salt 3006's: the delete runs only when the subvolume is missing
      if (!exists) {
        try {
          await ctx.call('btrfs.subvolume_delete', [p], { commit: a.commit ? 'after' : null });
        } catch (err) {
          if (!(err instanceof SALT_ERR_EXEC_COMMAND)) throw err;
          comment.push(`Error removing subvolume ${name}`);
          return ret;
        }
        ret.changes[name] = `Removed subvolume ${name}`;
      }
      return { ...ret, result: true };
    }),
});

type Props = Record<string, { value?: unknown }>;

/** The wanted properties whose current value differs; throws on a property the object lacks. */
function diffProperties(expected: Record<string, unknown>, current: Props): Record<string, unknown> {
  const diff: Record<string, unknown> = {};
  for (const [prop, value] of Object.entries(expected)) {
    const now = current[prop];
    if (!now) throw new RangeError(prop);
    if (!(typeof value === 'string' && value === now.value)) diff[prop] = value;
  }
  return diff;
}

const properties = defineState({
  args: (z: Z) =>
    z.object({
      name: z.unknown().transform(pyStr),
      device: z.unknown(),
      use_default: z.unknown().default(false),
      __dest: z.unknown().default(null),
    }),
  varkw: true,
  doc: `Makes sure that a list of properties are set in a subvolume, file or device.

name: the object.
device: the device where it lives; none when name is the device.
use_default: resolve the subvolume through the default one.
Other keywords: the properties (ro, label, compression).`,
  run: (ctx, a, extra) =>
    withDevice(ctx, a.name, a.device, Boolean(a.use_default), async (dest) => {
      const { name } = a;
      const { ret, comment } = emptyReturn(name);
      const p = a.device ? below(dest, name.startsWith('/') ? path.relative('/', name) : name) : name;
      if (!existsSync(p)) {
        comment.push(`Object ${name} not found`);
        return ret;
      }
      const wanted = Object.fromEntries(
        Object.entries(cleanKwargs(extra.kwargs)).map(([k, v]) => [
          k,
          typeof v === 'boolean' ? String(v) : v,
        ]),
      );
      let current: Props;
      try {
        current = (await ctx.call('btrfs.properties', [p])) as Props;
      } catch (err) {
        if (!(err instanceof SALT_ERR_EXEC_COMMAND)) throw err;
        comment.push(`Error reading properties from ${name}`, `Current error ${err.message}`);
        return ret;
      }
      let toSet: Record<string, unknown>;
      try {
        toSet = diffProperties(wanted, current);
      } catch {
        comment.push(`Some property not found in ${name}`);
        return ret;
      }
      if (ctx.test) {
        if (Object.keys(toSet).length) ret.changes = toSet;
        else comment.push(`No properties will be changed in ${name}`);
        return { ...ret, result: null };
      }
      if (!Object.keys(toSet).length) {
        comment.push(`Properties not changed in ${name}`);
        return { ...ret, result: true };
      }
      const set = Object.entries(toSet)
        .map(([k, v]) => `${k}=${pyStr(v)}`)
        .join(',');
      await ctx.call('btrfs.properties', [p], { set });
      const failed = diffProperties(wanted, (await ctx.call('btrfs.properties', [p])) as Props);
      if (Object.keys(failed).length) {
        comment.push(`Properties ${pyRepr(failed)} failed to be changed in ${name}`);
        return ret;
      }
      comment.push(`Properties changed in ${name}`);
      return { ...ret, changes: toSet, result: true };
    }),
});

export default defineStateModule({
  name: 'btrfs',
  doc: 'Manage BTRFS file systems.',
  functions: { subvolume_created, subvolume_deleted, properties },
});
