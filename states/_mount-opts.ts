/**
 * How `mount.mounted` decides that a mounted file system's options differ from the wanted ones
 * (Salt's `salt/states/mount.py`): options the kernel never shows, keys whose values it hides,
 * translations (`tcp` → `proto=tcp`), sizes in k, user and group names as ids. What Salt's loop
 * does to the active super options (a size among them moves to the end and stands in for the
 * option compared) is kept, so the same options trigger a remount in both.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { ExecContext } from '../kernel/index.js';

const INVISIBLE_OPTIONS = [
  '_netdev',
  'actimeo',
  'bg',
  'comment',
  'defaults',
  'delay_connect',
  'direct-io-mode',
  'intr',
  'loop',
  'nointr',
  'nobootwait',
  'nofail',
  'password',
  'reconnect',
  'retry',
  'soft',
  'auto',
  'users',
  'bind',
  'nonempty',
  'transform_symlinks',
  'port',
  'backup-volfile-servers',
];
const INVISIBLE_KEYS = [
  'actimeo',
  'comment',
  'credentials',
  'direct-io-mode',
  'password',
  'port',
  'retry',
  'secretfile',
];

export interface OptsTuning {
  extra_mount_invisible_options?: unknown;
  extra_mount_invisible_keys?: unknown;
  extra_mount_ignore_fs_keys?: unknown;
  extra_mount_translate_options?: unknown;
  hidden_opts?: string[] | null | undefined;
}

const listOf = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const mapOf = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const SIZE = /^size=(?<value>[0-9]+)(?<unit>k|m|g)/;
function sizeInK(m: RegExpMatchArray): string {
  const value = Number(m.groups!.value);
  const factor = m.groups!.unit === 'm' ? 1024 : m.groups!.unit === 'g' ? 1024 * 1024 : 1;
  return `size=${value * factor}k`;
}

/**
 * The wanted options the active mount lacks (unsorted), as Salt's `trigger_remount`, and the
 * last option as compared (Salt names it when the mount cache has an option no longer wanted).
 */
export async function optionsToRemount(
  ctx: ExecContext,
  opts: readonly string[],
  fstype: string,
  active: { opts: string[]; superopts: string[] },
  t: OptsTuning,
): Promise<{ trigger: string[]; last: string }> {
  let invisible = [...INVISIBLE_OPTIONS, ...listOf(t.extra_mount_invisible_options)];
  if (t.hidden_opts) invisible = [...new Set([...invisible, ...t.hidden_opts])];
  const invisibleKeys = [...INVISIBLE_KEYS, ...listOf(t.extra_mount_invisible_keys)];
  const ignoreFs: Record<string, unknown> = { ramfs: ['size'], ...mapOf(t.extra_mount_ignore_fs_keys) };
  const translate: Record<string, unknown> = {
    tcp: 'proto=tcp',
    udp: 'proto=udp',
    ...mapOf(t.extra_mount_translate_options),
  };
  const ignored = listOf(ignoreFs[fstype]);
  const superopts = active.superopts;
  const trigger: string[] = [];
  let last = '';
  for (const given of opts) {
    let opt = Object.hasOwn(translate, given) ? String(translate[given]) : given;
    const key = opt.split('=')[0]!;
    if (invisibleKeys.includes(key)) opt = key;
    const size = opt.match(SIZE);
    if (size) opt = sizeInK(size);
    if (fstype === 'cifs' && opt.split('=')[0] === 'user') opt = `username=${opt.split('=')[1]}`;
    if (ignored.includes(opt.split('=')[0]!)) opt = opt.split('=')[0]!;
    const parts = opt.split('=');
    if ((parts[0] === 'uid' || parts[0] === 'gid') && parts.length > 1) {
      let id = parts[1]!;
      if (!/^[0-9]+$/.test(id)) {
        const info = (await ctx
          .call(parts[0] === 'uid' ? 'user.info' : 'group.info', [id])
          .catch(() => undefined)) as Record<string, unknown> | undefined;
        if (info && typeof info === 'object' && parts[0] in info) id = String(info[parts[0]]);
      }
      opt = `${parts[0]}=${id}`;
    }
    // Python's loop over a list it removes from and appends to: the same visits here.
    for (let i = 0; i < superopts.length; i++) {
      const m = superopts[i]!.match(SIZE);
      if (!m) continue;
      opt = sizeInK(m);
      superopts.splice(i, 1);
      superopts.push(opt);
    }
    if (
      !active.opts.includes(opt) &&
      !superopts.includes(opt) &&
      !invisible.includes(opt) &&
      !ignored.includes(opt) &&
      !invisibleKeys.includes(opt)
    )
      trigger.push(opt);
    last = opt;
  }
  return { trigger, last };
}

/** Python's `os.path.realpath`: symlinks of the part that exists resolved, the rest kept. */
export function pyRealpath(p: string): string {
  const abs = path.resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    const parent = path.dirname(abs);
    return parent === abs ? abs : path.join(pyRealpath(parent), path.basename(abs));
  }
}
