/**
 * Salt's `mount.mounted` (`salt/states/mount.py`) on Linux: the device is mounted on `name`
 * with `fstype` and `opts` (remounted when an option is missing, unmounted and mounted again
 * when another device is there), the mount point made with `mkmnt`, and with `persist` the
 * fstab entry (`config`) written through `mount.set_fstab`. The options it mounted with go to
 * the mount cache, read back to remount when one disappears. Comments and changes are Salt's.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { StateContext, StateReturn } from '../plugins/states/index.js';
import { type OptsTuning, optionsToRemount, pyRealpath } from './_mount-opts.js';

export interface MountedArgs extends Omit<OptsTuning, 'hidden_opts'> {
  hidden_opts?: string | string[] | null | undefined;
  name: string;
  device: unknown;
  fstype: unknown;
  mkmnt: unknown;
  opts: unknown;
  dump: unknown;
  pass_num: unknown;
  config: string;
  persist: unknown;
  mount: unknown;
  user?: string | null | undefined;
  match_on: unknown;
  device_name_regex?: unknown;
  bind_mount_copy_active_opts: unknown;
}

type Active = Record<string, { device: string; opts: string[]; superopts?: string[]; [k: string]: unknown }>;

const truthy = (v: unknown) => Boolean(v) && !(Array.isArray(v) && v.length === 0);
const splitOpts = (v: unknown): string[] =>
  typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v.map(String) : [];

/** The device Salt compares with the mounted ones (bind mounts, UUID=, LABEL=, LVM, fuse). */
async function realDeviceOf(
  ctx: StateContext,
  a: { device: string; opts: string[]; compName: string; active: Active; copyOpts: boolean },
  deviceList: string[],
): Promise<{ real: string; opts: string[] } | { error: string }> {
  const { device, active, compName } = a;
  let opts = a.opts;
  let real = device;
  if (device.startsWith('/')) {
    if (opts.includes('bind') && Object.hasOwn(active, compName)) {
      let dev = device.replace(/ /g, '\\040');
      const merge = (from: string) => {
        if (a.copyOpts)
          opts = [...new Set([...opts, ...active[from]!.opts, ...(active[from]!.superopts ?? [])])].sort();
        active[compName]!.opts.push('bind');
      };
      if (active[compName]!.device.startsWith('/')) {
        for (;;) {
          if (Object.hasOwn(active, dev)) {
            real = active[dev]!.device;
            merge(dev);
            break;
          }
          const up = path.dirname(dev.replace(/\\040/g, ' '));
          if (up === dev) break;
          dev = up;
        }
      } else {
        if (Object.hasOwn(active, dev)) merge(dev);
        real = active[compName]!.device;
      }
    } else real = pyRealpath(device);
  } else if (device.toUpperCase().startsWith('UUID=')) {
    real = (device.split('=')[1] ?? '').replace(/^"+|"+$/g, '').toLowerCase();
  } else if (device.toUpperCase().startsWith('LABEL=')) {
    const label = device.split('=')[1] ?? '';
    const res = (await ctx.call('cmd.run_all', [`blkid -t LABEL=${label}`])) as {
      retcode: number;
      stdout: string;
    };
    if (res.retcode > 0) return { error: `Unable to find device with label ${label}.` };
    // Salt iterates over the characters of blkid's output, not its lines.
    for (const ch of res.stdout) deviceList.push(ch.split(':')[0]!);
    real = deviceList[0] ?? '';
  }
  const lvs = device.match(/^\/dev\/(?<vg>[^/]+)\/(?<lv>[^/]+$)/);
  if (lvs) {
    const mapper = `/dev/mapper/${lvs.groups!.vg!.replace(/-/g, '--')}-${lvs.groups!.lv!.replace(/-/g, '--')}`;
    if (existsSync(mapper)) real = mapper;
  }
  const fuse = device.match(/^\w+#(?<dev>.+)/);
  if (fuse) real = fuse.groups!.dev!;
  return { real, opts };
}

async function activeNow(ctx: StateContext): Promise<Active> {
  return (await ctx.call('mount.active', [], { extended: true })) as Active;
}

/** Remounts (or, for nfs/cvfs/fuse, unmounts and mounts) because `what` options changed. */
async function forceRemount(
  ctx: StateContext,
  ret: StateReturn,
  r: { realName: string; device: string; mkmnt: unknown; fstype: string; opts: string[] },
  what: string,
): Promise<boolean> {
  const args = { mkmnt: r.mkmnt, fstype: r.fstype, opts: r.opts };
  if (['nfs', 'cvfs'].includes(r.fstype) || r.fstype.startsWith('fuse')) {
    ret.changes.umount = `Forced unmount and mount because options (${what}) changed`;
    const un = await ctx.call('mount.umount', [r.realName]);
    if (un !== true) {
      ret.result = false;
      ret.comment = `Unable to unmount ${r.realName}: ${String(un)}.`;
      return false;
    }
    ret.result = (await ctx.call('mount.mount', [r.realName, r.device], args)) === true;
    return true;
  }
  ret.changes.umount = `Forced remount because options (${what}) changed`;
  ret.result = (await ctx.call('mount.remount', [r.realName, r.device], args)) === true;
  return true;
}

export async function mounted(ctx: StateContext, a: MountedArgs): Promise<StateReturn> {
  const ret: StateReturn = { name: a.name, changes: {}, result: true, comment: '' };
  let updateCache = false;
  if (!a.name) return { ...ret, result: false, comment: 'Must provide name to mount.mounted' };
  if (!truthy(a.device)) return { ...ret, result: false, comment: 'Must provide device to mount.mounted' };
  if (!truthy(a.fstype)) return { ...ret, result: false, comment: 'Must provide fstype to mount.mounted' };
  const device = String(a.device);
  const fstype = String(a.fstype);
  const regexes = Array.isArray(a.device_name_regex) ? a.device_name_regex.map(String) : [];
  let opts = a.opts === null || a.opts === undefined ? [] : splitOpts(a.opts);
  const hidden = a.hidden_opts;
  const tuning: OptsTuning = { ...a, hidden_opts: typeof hidden === 'string' ? hidden.split(',') : hidden };
  const name = a.name === '/' ? a.name : a.name.replace(/\/+$/, '');
  const deviceList: string[] = [];
  let active = await activeNow(ctx);
  const realName = pyRealpath(name);
  const compName = realName.replace(/ /g, '\\040');
  const found = await realDeviceOf(
    ctx,
    { device, opts, compName, active, copyOpts: truthy(a.bind_mount_copy_active_opts) },
    deviceList,
  );
  if ('error' in found) return { ...ret, result: false, comment: found.error };
  const realDevice = found.real;
  opts = found.opts;
  const mount = truthy(a.mount);
  const mounted = active[compName];
  if (mounted && mount) {
    mounted.superopts ??= [];
    const first = String(mounted.device);
    deviceList.push(first, pyRealpath(deviceList[0] ?? first));
    for (const k of ['alt_device', 'device_uuid', 'device_label']) {
      const v = mounted[k];
      if (truthy(v) && !deviceList.includes(String(v))) deviceList.push(String(v));
    }
    if (opts.length) {
      const remount = { realName, device, mkmnt: a.mkmnt, fstype, opts };
      const { trigger, last } = await optionsToRemount(
        ctx,
        opts,
        fstype,
        { opts: mounted.opts, superopts: mounted.superopts },
        tuning,
      );
      if (trigger.length) {
        const what = trigger.sort().join(',');
        if (ctx.test)
          return {
            ...ret,
            result: null,
            comment: `Remount would be forced because options (${what}) changed`,
          };
        if (!(await forceRemount(ctx, ret, remount, what))) return ret;
        updateCache = true;
      }
      const cache = (await ctx.call('mount.read_mount_cache', [realName])) as Record<string, unknown>;
      if (cache && typeof cache === 'object' && 'opts' in cache) {
        const missing = splitOpts(cache.opts).filter((o) => !opts.includes(o));
        if (missing.length) {
          if (ctx.test)
            return {
              ...ret,
              result: null,
              comment: `Remount would be forced because options (${missing.join(',')})changed`,
            };
          // Salt names the last option of its earlier loop here.
          if (!(await forceRemount(ctx, ret, remount, last))) return ret;
          updateCache = true;
        }
      } else updateCache = true;
    }
    if (!deviceList.includes(realDevice)) {
      const ignoredBy = regexes.flatMap((re) =>
        deviceList.filter((d) => new RegExp(`^(?:${re})`).test(d)),
      )[0];
      if (ignoredBy) {
        ret.result = true;
        ret.comment = `An umount will not be forced because device matched device_name_regex: ${ignoredBy}`;
      } else if (ctx.test) {
        ret.result = null;
        ret.comment = `An umount would have been forced because devices do not match.  Watched: ${device}`;
      } else {
        let why = `Forced unmount because devices don't match. Wanted: ${device}`;
        if (realDevice !== device) why += ` (${realDevice})`;
        ret.changes.umount = `${why}, current: ${deviceList.join(', ')}`;
        await ctx.call('mount.umount', [realName], { user: a.user ?? null });
        active = await activeNow(ctx);
        if (Object.hasOwn(active, compName)) return { ...ret, result: null, comment: 'Unable to unmount' };
        updateCache = true;
      }
    } else ret.comment = 'Target was already mounted';
  }
  if (!Object.hasOwn(active, compName)) {
    if (mount) {
      if (ctx.test) {
        ret.result = null;
        if (existsSync(name)) ret.comment = `${name} would be mounted`;
        else if (truthy(a.mkmnt)) ret.comment = `${name} would be created and mounted`;
        else ret.comment = `${name} does not exist and would not be created`;
        return ret;
      }
      if (!existsSync(name) && !truthy(a.mkmnt))
        return { ...ret, result: false, comment: 'Mount directory is not present' };
      const out = await ctx.call('mount.mount', [name, device, a.mkmnt, fstype, opts], {
        user: a.user ?? null,
      });
      active = await activeNow(ctx);
      updateCache = true;
      if (typeof out === 'string') return { ...ret, result: false, comment: out };
      if (Object.hasOwn(active, compName)) {
        ret.comment = 'Target was successfully mounted';
        ret.changes.mount = true;
      }
    } else if (!existsSync(name)) {
      if (ctx.test) {
        ret.result = null;
        ret.comment = truthy(a.mkmnt)
          ? `${name} would be created, but not mounted`
          : `${name} does not exist and would neither be created nor mounted`;
      } else if (truthy(a.mkmnt)) {
        mkdirSync(name, { recursive: true, mode: 0o755 });
        ret.comment = `${name} was created, not mounted`;
      } else ret.comment = `${name} not present and not mounted`;
    } else ret.comment = ctx.test ? `${name} would not be mounted` : `${name} not mounted`;
  }
  if (!truthy(a.persist)) return ret;
  const fstabArgs = {
    name,
    device,
    fstype,
    opts,
    dump: a.dump,
    pass_num: a.pass_num,
    config: a.config,
    match_on: a.match_on,
  };
  let out: unknown;
  if (ctx.test) {
    out = await ctx.call('mount.set_fstab', [], { ...fstabArgs, test: true });
  } else out = await ctx.call('mount.set_fstab', [], fstabArgs);
  if (ctx.test && out !== 'present') {
    ret.result = null;
    let comment: string;
    if (out === 'new')
      comment = mount
        ? `${name} is mounted, but needs to be written to the fstab in order to be made persistent.`
        : `${name} needs to be written to the fstab in order to be made persistent.`;
    else if (out === 'change')
      comment = mount
        ? `${name} is mounted, but its fstab entry must be updated.`
        : `The ${name} fstab entry must be updated.`;
    else {
      ret.result = false;
      comment = `Unable to detect fstab status for mount point ${name} due to unexpected output '${String(out)}' from call to mount.set_fstab. This is most likely a bug.`;
    }
    ret.comment = `${String(ret.comment)}. ${comment}`;
    return ret;
  }
  // As Salt, the cache is written under test=True too.
  if (updateCache)
    await ctx.call('mount.write_mount_cache', [realName, device], {
      mkmnt: a.mkmnt,
      fstype,
      mount_opts: opts,
    });
  if (out === 'present') ret.comment += '. Entry already exists in the fstab.';
  else notePersisted(ret, out);
  return ret;
}

/** What `mount.set_fstab` answered, in the return as Salt's `mounted` and `swap` put it: a new or updated entry. */
export function notePersisted(ret: StateReturn, out: unknown): void {
  if (out === 'new') {
    ret.changes.persist = 'new';
    ret.comment += '. Added new entry to the fstab.';
  } else if (out === 'change') {
    ret.changes.persist = 'update';
    ret.comment += '. Updated the entry in the fstab.';
  }
}
