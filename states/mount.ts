/**
 * Salt's `mount` state module (`salt/states/mount.py`) on Linux, through the `mount` execution
 * module: `mounted` (in `_mount-mounted.ts`), `unmounted`, `swap`, `fstab_present`,
 * `fstab_absent` and `mod_watch` (a watched `mounted` remounts). Every function takes `config`
 * for the fstab file it reads and writes. Comments and changes are Salt's.
 */
import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { mounted, notePersisted } from './_mount-mounted.js';

type Z = typeof import('zod').z;
type Fstab = Record<string, { device?: unknown; fstype?: unknown }>;

const stripSlash = (p: string) => (p === '/' ? p : p.replace(/\/+$/, ''));
const fstabOf = async (ctx: StateContext, config: string) =>
  (await ctx.call('mount.fstab', [], { config })) as Fstab;

/** Salt's `_convert_to`: the fstab's first field for a device named by path, UUID= or LABEL=. */
async function convertTo(ctx: StateContext, device: string, to: string | null | undefined) {
  if (!to || (to === 'device' && device.startsWith('/')) || device.startsWith(`${to.toUpperCase()}=`))
    return device;
  const blkid = (await ctx.call(
    'disk.blkid',
    device.startsWith('/') ? [device] : [],
    device.startsWith('/') ? {} : { token: device },
  )) as Record<string, Record<string, unknown>>;
  const keys = Object.keys(blkid ?? {});
  if (keys.length !== 1) return null;
  return to === 'device' ? keys[0]! : `${to.toUpperCase()}=${String(blkid[keys[0]!]![to.toUpperCase()])}`;
}

const mountedArgs = (z: Z) =>
  z.object({
    name: z.string(),
    device: z.unknown(),
    fstype: z.unknown(),
    mkmnt: z.unknown().default(false),
    opts: z.unknown().default('defaults'),
    dump: z.unknown().default(0),
    pass_num: z.unknown().default(0),
    config: z.string().default('/etc/fstab'),
    persist: z.unknown().default(true),
    mount: z.unknown().default(true),
    user: z.string().nullish(),
    match_on: z.unknown().default('auto'),
    device_name_regex: z.unknown().optional(),
    extra_mount_invisible_options: z.unknown().optional(),
    extra_mount_invisible_keys: z.unknown().optional(),
    extra_mount_ignore_fs_keys: z.unknown().optional(),
    extra_mount_translate_options: z.unknown().optional(),
    hidden_opts: z.union([z.string(), z.array(z.string())]).nullish(),
    bind_mount_copy_active_opts: z.unknown().default(true),
  });

const unmounted = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      device: z.string().nullish(),
      config: z.string().default('/etc/fstab'),
      persist: z.unknown().default(false),
      user: z.string().nullish(),
    }),
  varkw: true,
  doc: 'Verify that a device is not mounted; with persist, also that it has no fstab entry.',
  async run(ctx, a): Promise<StateReturn> {
    const { name, device, config } = a;
    const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
    if (!name) return { ...ret, result: false, comment: 'Must provide name to mount.unmounted' };
    const active = (await ctx.call('mount.active', [], { extended: true })) as Record<string, unknown>;
    if (!Object.hasOwn(active, name.replace(/ /g, '\\040'))) ret.comment = 'Target was already unmounted';
    else {
      if (ctx.test)
        return { ...ret, result: null, comment: `Mount point ${name} is mounted but should not be` };
      const out = await ctx.call('mount.umount', device ? [name, device] : [name], { user: a.user ?? null });
      if (typeof out === 'string') {
        ret.comment = out;
        ret.result = false;
      } else if (out === true) {
        ret.comment = 'Target was successfully unmounted';
        ret.changes.umount = true;
      } else ret.comment = 'Execute set to False, Target was not unmounted';
      await ctx.call('mount.delete_mount_cache', [name]);
    }
    if (!a.persist) return ret;
    const fstab = await fstabOf(ctx, config);
    if (!Object.hasOwn(fstab, name)) {
      ret.comment += '. fstab entry not found';
      return ret;
    }
    if (device && fstab[name]!.device !== device) {
      ret.comment += `. fstab entry for device ${device} not found`;
      return ret;
    }
    if (ctx.test)
      return {
        ...ret,
        result: null,
        comment: `Mount point ${name} is unmounted but needs to be purged from ${config} to be made persistent`,
      };
    if ((await ctx.call('mount.rm_fstab', [name, device ?? null, config])) !== true) {
      ret.result = false;
      ret.comment += '. Failed to persist purge';
    } else {
      ret.comment += '. Removed target from fstab';
      ret.changes.persist = 'purged';
    }
    return ret;
  },
});

const swap = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      persist: z.unknown().default(true),
      config: z.string().default('/etc/fstab'),
    }),
  doc: 'Activate a swap device (and, with persist, add it to the fstab).',
  async run(ctx, { name, persist, config }): Promise<StateReturn> {
    const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
    let on = (await ctx.call('mount.swaps', [])) as Record<string, Record<string, unknown>>;
    let real = name;
    try {
      if (lstatSync(name).isSymbolicLink()) {
        real = readlinkSync(name);
        if (!real.startsWith('/')) real = `/dev/${path.basename(real)}`;
      }
    } catch {}
    if (Object.hasOwn(on, real)) ret.comment = `Swap ${name} already active`;
    else if (ctx.test) {
      ret.result = null;
      ret.comment = `Swap ${name} is set to be activated`;
    } else {
      await ctx.call('mount.swapon', [real]);
      on = (await ctx.call('mount.swaps', [])) as Record<string, Record<string, unknown>>;
      if (Object.hasOwn(on, real)) {
        ret.comment = `Swap ${name} activated`;
        ret.changes = on[real]!;
      } else {
        ret.comment = `Swap ${name} failed to activate`;
        ret.result = false;
      }
    }
    if (!persist) return ret;
    const fstab = await fstabOf(ctx, config);
    if (ctx.test) {
      if (!Object.hasOwn(fstab, name) && !Object.values(fstab).some((e) => e.device === name)) {
        ret.result = null;
        if (Object.hasOwn(on, name))
          ret.comment = `Swap ${name} is set to be added to the fstab and to be activated`;
      }
      return ret;
    }
    if (fstab.none && fstab.none.device === name && fstab.none.fstype !== 'swap') return ret;
    notePersisted(ret, await ctx.call('mount.set_fstab', ['none', name, 'swap', ['defaults'], 0, 0, config]));
    return ret;
  },
});

const fstabPresent = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      fs_file: z.string(),
      fs_vfstype: z.string(),
      fs_mntops: z.unknown().default('defaults'),
      fs_freq: z.unknown().default(0),
      fs_passno: z.unknown().default(0),
      mount_by: z.string().nullish(),
      config: z.string().default('/etc/fstab'),
      mount: z.unknown().default(true),
      match_on: z.unknown().default('auto'),
      not_change: z.unknown().default(false),
      fs_mount: z.unknown().default(true),
    }),
  doc: 'Make sure that a device is present in the fstab (fs_spec name, fs_file, fs_vfstype, ...).',
  async run(ctx, a): Promise<StateReturn> {
    const { name, config } = a;
    const comments: string[] = [];
    const ret: StateReturn = { name, result: false, changes: {}, comment: comments };
    const fsFile = stripSlash(a.fs_file);
    const spec = await convertTo(ctx, name, a.mount_by);
    if (!spec) {
      comments.push(`Device ${name} cannot be converted to ${String(a.mount_by)}`);
      return ret;
    }
    const args = {
      name: fsFile,
      device: spec,
      fstype: a.fs_vfstype,
      opts: a.fs_mntops,
      dump: a.fs_freq,
      pass_num: a.fs_passno,
      config,
      match_on: a.match_on,
      not_change: a.not_change,
    };
    if (ctx.test) {
      const out = await ctx.call('mount.set_fstab', [], { ...args, test: true });
      ret.result = null;
      if (out === 'present') comments.push(`${fsFile} entry is already in ${config}.`);
      else if (out === 'new') {
        comments.push(`${fsFile} entry will be written in ${config}.`);
        if (a.mount) comments.push(`Will mount ${name} on ${fsFile}`);
      } else if (out === 'change') comments.push(`${fsFile} entry will be updated in ${config}.`);
      else {
        ret.result = false;
        comments.push(`${fsFile} entry cannot be created in ${config}: ${String(out)}.`);
      }
      return ret;
    }
    const out = await ctx.call('mount.set_fstab', [], args);
    ret.result = true;
    if (out === 'present') comments.push(`${fsFile} entry was already in ${config}.`);
    else if (out === 'new') {
      ret.changes.persist = out;
      comments.push(`${fsFile} entry added in ${config}.`);
      if (a.mount) {
        const mounted = await ctx.call('mount.mount', [fsFile]);
        if (typeof mounted === 'string') {
          ret.result = false;
          comments.push(`Error while mounting ${mounted.split(':').slice(1).join(':')}`);
        } else comments.push(`Mounted ${name} on ${fsFile}`);
      }
    } else if (out === 'change') {
      ret.changes.persist = out;
      comments.push(`${fsFile} entry updated in ${config}.`);
    } else {
      ret.result = false;
      comments.push(`${fsFile} entry cannot be changed in ${config}: ${String(out)}.`);
    }
    return ret;
  },
});

const fstabAbsent = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      fs_file: z.string(),
      mount_by: z.string().nullish(),
      config: z.string().default('/etc/fstab'),
    }),
  doc: 'Makes sure that a fstab mount point is absent.',
  async run(ctx, a): Promise<StateReturn> {
    const { name, config } = a;
    const comments: string[] = [];
    const ret: StateReturn = { name, result: false, changes: {}, comment: comments };
    const fsFile = stripSlash(a.fs_file);
    const spec = await convertTo(ctx, name, a.mount_by);
    const fstab = await fstabOf(ctx, config);
    if (ctx.test) {
      ret.result = null;
      comments.push(
        Object.hasOwn(fstab, fsFile)
          ? `${fsFile} entry will be removed from ${config}.`
          : `${fsFile} entry is already missing in ${config}.`,
      );
      return ret;
    }
    if (!Object.hasOwn(fstab, fsFile)) {
      ret.result = true;
      comments.push(`${fsFile} entry is already missing in ${config}.`);
      return ret;
    }
    if ((await ctx.call('mount.rm_fstab', [], { name: fsFile, device: spec, config })) !== true) {
      comments.push(`${fsFile} entry failed when removing from ${config}.`);
      return ret;
    }
    ret.result = true;
    ret.changes.persist = 'removed';
    comments.push(`${fsFile} entry removed from ${config}.`);
    return ret;
  },
});

export default defineStateModule({
  name: 'mount',
  doc: 'Mounting of file systems and their fstab entries (mount.mounted, unmounted, swap, fstab_present, fstab_absent).',
  functions: {
    mounted: defineState({
      args: mountedArgs,
      varkw: true,
      doc: 'Verify that a device is mounted (remounted when its options changed) and, with persist, in the fstab.',
      run: (ctx, a) => mounted(ctx, a),
    }),
    unmounted,
    swap,
    fstab_present: fstabPresent,
    fstab_absent: fstabAbsent,
    mod_watch: defineState({
      args: (z) => z.object({ name: z.string(), user: z.string().nullish() }),
      varkw: true,
      doc: 'The mounted state remounts when a watch requisite fires.',
      async run(ctx, { name, user }, extra): Promise<StateReturn> {
        const kw = extra.kwargs;
        const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
        if (kw.sfun !== 'mounted') {
          ret.comment = `Watch not supported in ${String(kw.sfun)} at this time`;
          return ret;
        }
        const out = await ctx.call(
          'mount.remount',
          [name, kw.device, false, kw.fstype ?? '', kw.opts ?? 'defaults'],
          {
            user: user ?? null,
          },
        );
        if (out) ret.comment = `${name} remounted`;
        else {
          ret.result = false;
          ret.comment = `${name} failed to remount: ${String(out)}`;
        }
        return ret;
      },
    }),
  },
});
