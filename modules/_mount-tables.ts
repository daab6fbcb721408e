/**
 * Salt's mount functions for the tables of other systems (`salt/modules/mount.py`), merged into
 * `modules/mount.ts`: Solaris' vfstab (`vfstab`, `set_vfstab`, `rm_vfstab`), macOS' automount
 * map (`automaster`, `set_automaster`, `rm_automaster`) and AIX's /etc/filesystems. Each takes
 * its table's path as `config=`, so it runs on any file. As in Salt, the vfstab readers are the
 * fstab ones off Solaris, and the /etc/filesystems functions do nothing off AIX.
 */
import { statSync, writeFileSync } from 'node:fs';
import { defineFunction, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { placeLine, readLines, rmFstab, writeTable } from './_mount-fstab.js';
import { pyOsError } from './_py-oserror.js';
import { pySplit } from './_status-proc.js';

/** Salt's `is_true`: True, a positive number, or the text "true" in any case. */
export const isTrue = (v: unknown): boolean =>
  v === true || (typeof v === 'number' && v > 0) || (typeof v === 'string' && v.toLowerCase() === 'true');

/** Salt's `test_mode(test=test, **kwargs)`: `test` or any keyword named "test" in any case is true. */
const testMode = (test: unknown, kwargs: Record<string, unknown>): boolean =>
  isTrue(test) || Object.entries(kwargs).some(([k, v]) => k.toLowerCase() === 'test' && isTrue(v));

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

// --- vfstab -------------------------------------------------------------------------------

const VFSTAB_KEYS = [
  'device',
  'device_fsck',
  'name',
  'fstype',
  'pass_fsck',
  'mount_at_boot',
  'opts',
] as const;
type VfsKey = (typeof VFSTAB_KEYS)[number];
type VfsEntry = Partial<Record<VfsKey, string>>;
const VFSTAB_SPECIAL = new Set(['devfs', 'proc', 'ctfs', 'objfs', 'sharefs', 'fs', 'tmpfs']);

function vfsOfLine(line: string): VfsEntry | undefined {
  if (line.startsWith('#')) return undefined;
  const c = pySplit(line);
  if (c.length !== 7) return undefined;
  return Object.fromEntries(VFSTAB_KEYS.map((k, i) => [k, c[i]!])) as VfsEntry;
}

const sortedOpts = (s: string): string => s.split(',').sort().join(',');

function vfsMatches(criteria: VfsEntry, line: string): boolean | undefined {
  const entry = vfsOfLine(line);
  if (!entry) return undefined;
  return (Object.entries(criteria) as [VfsKey, string][]).every(([k, v]) =>
    k === 'opts' ? sortedOpts(entry.opts ?? '') === sortedOpts(v) : entry[k] === v,
  );
}

/** Salt's vfstab line: the columns padded as Solaris lays them out. */
const vfsLine = (e: VfsEntry): string =>
  `${e.device!.padEnd(11)} ${e.device_fsck!.padEnd(3)} ${e.name!.padEnd(19)} ${e.fstype!.padEnd(8)} ` +
  `${e.pass_fsck!.padEnd(3)} ${e.mount_at_boot!.padEnd(6)} ${e.opts}\n`;

/** The `match_on` keys: a list as given, a key, or "auto" (the mount point for special filesystems). */
function matchKeys(matchOn: unknown, fstype: string, special: Set<string>, byDevice: string): string[] {
  if (Array.isArray(matchOn)) return matchOn.map(pyStr);
  if (typeof matchOn !== 'string')
    throw new SALT_ERR_EXEC_COMMAND('match_on must be a string or list of strings');
  if (matchOn === 'auto') return special.has(fstype) ? ['name'] : [byDevice];
  return [matchOn];
}

/** Salt's message for unknown `match_on` keys (it prints a Python filter object, not the keys). */
const badKeys = (): never => {
  throw new SALT_ERR_EXEC_COMMAND('Unrecognized keys in match_on: "<filter object>"');
};

interface SetVfstabArgs {
  name: string;
  device: unknown;
  fstype: unknown;
  opts: unknown;
  device_fsck: unknown;
  pass_fsck: unknown;
  mount_at_boot: unknown;
  config: string;
  test: unknown;
  match_on: unknown;
  not_change: unknown;
}

function setVfstab(a: SetVfstabArgs, kwargs: Record<string, unknown>): 'present' | 'change' | 'new' {
  const opts = Array.isArray(a.opts) ? a.opts.map(pyStr).join(',') : a.opts;
  const raw: Record<VfsKey, unknown> = {
    name: a.name,
    device: a.device,
    fstype: a.fstype,
    opts,
    device_fsck: a.device_fsck,
    pass_fsck: a.pass_fsck,
    mount_at_boot: a.mount_at_boot === 'yes' ? 'yes' : 'no',
  };
  const entry: VfsEntry = {};
  for (const [k, v] of Object.entries(raw)) if (v !== null && v !== undefined) entry[k as VfsKey] = pyStr(v);
  const keys = matchKeys(a.match_on, pyStr(a.fstype), VFSTAB_SPECIAL, 'device');
  const criteria: VfsEntry = {};
  for (const k of keys) {
    if (!Object.hasOwn(entry, k)) badKeys();
    criteria[k as VfsKey] = entry[k as VfsKey];
  }
  if (!isFile(a.config)) throw new SALT_ERR_EXEC_COMMAND(`Bad config file "${a.config}"`);
  const { lines, ret } = placeLine(
    readLines(a.config),
    (line) => vfsMatches(criteria, line),
    (line) => vfsMatches(entry, line),
    vfsLine(entry),
    a.not_change,
  );
  if (ret !== 'present' && !testMode(a.test, kwargs)) writeTable(a.config, lines);
  return ret;
}

// --- automaster ----------------------------------------------------------------------------

/** The three fields of an automount map line, or undefined for a comment, blank or bad line. */
function autoFields(line: string): string[] | undefined {
  if (line.startsWith('#') || line.trim() === '') return undefined;
  const c = pySplit(line);
  return c.length === 3 ? c : undefined;
}

/** Python's `list[1]` on a `split(':')`: the part after the first colon, or Salt's IndexError. */
function deviceOf(field: string): string {
  const parts = field.split(':');
  if (parts.length < 2)
    throw new SALT_ERR_EXEC_COMMAND(`list index out of range: no "fstype:device" in ${field}`);
  return parts[1]!;
}

export function automaster(
  config: string,
): Record<string, { device: string; fstype: string; opts: string[] }> {
  const ret: Record<string, { device: string; fstype: string; opts: string[] }> = {};
  if (!isFile(config)) return ret;
  for (const line of readLines(config)) {
    const c = autoFields(line);
    if (!c) continue;
    const opts = c[1]!.split(',');
    ret[c[0]!.replaceAll('/..', '')] = { device: deviceOf(c[2]!), fstype: opts[0]!, opts: opts.slice(1) };
  }
  return ret;
}

interface SetAutomasterArgs {
  name: unknown;
  device: unknown;
  fstype: unknown;
  opts: unknown;
  config: string;
  test: unknown;
  not_change: unknown;
}

async function setAutomaster(ctx: ExecContext, a: SetAutomasterArgs, kwargs: Record<string, unknown>) {
  const opts = Array.isArray(a.opts) ? a.opts.map(pyStr).join(',') : pyStr(a.opts);
  if (!isFile(a.config)) {
    await ctx.call('file.touch', [a.config]);
    await ctx.call('file.append', ['/etc/auto_master', `/-\t\t\t${a.config}`]);
  }
  const fstype = pyStr(a.fstype);
  const name = `/..${pyStr(a.name)}`;
  let deviceFmt = `${fstype}:${pyStr(a.device)}`;
  const typeOpts = `-fstype=${fstype},${opts}`;
  if (fstype === 'smbfs') deviceFmt = deviceFmt.replaceAll(fstype, '');
  const newline = `${name}\t${typeOpts}\t${deviceFmt}\n`;
  const lines: string[] = [];
  let change = false;
  let present = false;
  for (const line of readLines(a.config)) {
    const c = autoFields(line);
    if (!c || (c[0] !== name && c[2] !== deviceFmt)) {
      lines.push(line);
      continue;
    }
    // As in Salt: a found entry that needs no change (or with not_change) is not kept in `lines`.
    present = true;
    if (a.not_change) continue;
    if (c[0] !== name || c[1] !== typeOpts || c[2] !== deviceFmt) change = true;
    if (change) lines.push(newline);
  }
  const test = testMode(a.test, kwargs);
  if (change) {
    if (!test) writeTable(a.config, lines);
    return 'change';
  }
  if (present) return 'present';
  if (!test) writeTable(a.config, [...lines, newline]);
  return 'new';
}

async function rmAutomaster(ctx: ExecContext, name: string, device: unknown, config: string): Promise<true> {
  if (!Object.hasOwn(automaster(config), name)) return true;
  const lines = readLines(config).filter((line) => {
    const c = autoFields(line);
    if (!c) return true;
    const same = c[0]!.replaceAll('/..', '') === name;
    return !(device ? same && deviceOf(c[2]!) === device : same);
  });
  try {
    writeFileSync(config, lines.join(''));
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(`Couldn't write to ${config}: ${pyOsError(err, config)}`);
  }
  await ctx.call('cmd.run', ['automount -cv']);
  return true;
}

// --- the functions -------------------------------------------------------------------------

const isAix = (ctx: ExecContext): boolean => String(ctx.grains.kernel ?? '').includes('AIX');

export const tableMountFunctions = {
  vfstab: defineFunction({
    args: (z) => z.object({ config: z.string().default('/etc/vfstab') }),
    doc: `List the contents of the vfstab (read as the fstab off Solaris).

CLI Example:

    salt '*' mount.vfstab`,
    run: (ctx, a) => ctx.call('mount.fstab', [a.config]), // Salt's vfstab is its fstab off Solaris
  }),
  rm_vfstab: defineFunction({
    args: (z) =>
      z.object({ name: z.string(), device: z.unknown(), config: z.string().default('/etc/vfstab') }),
    doc: `Remove the mount point from the vfstab.

CLI Example:

    salt '*' mount.rm_vfstab /mnt/foo /device/c0t0d0p0`,
    run: (_ctx, a) => rmFstab(a.name, a.device, a.config),
  }),
  set_vfstab: defineFunction({
    args: (z) =>
      z.object({
        name: z.string(),
        device: z.unknown(),
        fstype: z.unknown(),
        opts: z.unknown().default('-'),
        device_fsck: z.unknown().default('-'),
        pass_fsck: z.unknown().default('-'),
        mount_at_boot: z.unknown().default('yes'),
        config: z.string().default('/etc/vfstab'),
        test: z.unknown().default(false),
        match_on: z.unknown().default('auto'),
        not_change: z.unknown().default(false),
      }),
    varkw: true,
    doc: `Verify that this mount is represented in the vfstab, change the mount to match the data passed, or add the mount if it is not present: "present", "change" or "new".

If the entry is found via match_on and not_change is True, the current line is kept.

CLI Example:

    salt '*' mount.set_vfstab /mnt/foo /device/c0t0d0p0 ufs`,
    run: (_ctx, a, extra) => setVfstab(a, extra.kwargs),
  }),
  automaster: defineFunction({
    args: (z) => z.object({ config: z.string().default('/etc/auto_salt') }),
    doc: `List the contents of the auto master.

CLI Example:

    salt '*' mount.automaster`,
    run: (_ctx, a) => automaster(a.config),
  }),
  set_automaster: defineFunction({
    args: (z) =>
      z.object({
        name: z.unknown(),
        device: z.unknown(),
        fstype: z.unknown(),
        opts: z.unknown().default(''),
        config: z.string().default('/etc/auto_salt'),
        test: z.unknown().default(false),
        not_change: z.unknown().default(false),
      }),
    varkw: true,
    doc: `Verify that this mount is represented in the auto_salt map, change the mount to match the data passed, or add the mount if it is not present: "present", "change" or "new".

A config file that does not exist is created and named in /etc/auto_master.

CLI Example:

    salt '*' mount.set_automaster /mnt/foo /dev/sdz1 ext4`,
    run: (ctx, a, extra) => setAutomaster(ctx, a, extra.kwargs),
  }),
  rm_automaster: defineFunction({
    args: (z) =>
      z.object({ name: z.string(), device: z.unknown(), config: z.string().default('/etc/auto_salt') }),
    doc: `Remove the mount point from the auto_master, then run "automount -cv".

CLI Example:

    salt '*' mount.rm_automaster /mnt/foo /dev/sdg`,
    run: (ctx, a) => rmAutomaster(ctx, a.name, a.device, a.config),
  }),
  filesystems: defineFunction({
    args: (z) => z.object({ config: z.string().default('/etc/filesystems') }),
    doc: `List the contents of the filesystems (AIX only: empty elsewhere).

CLI Example:

    salt '*' mount.filesystems`,
    run: (ctx) => {
      if (isAix(ctx)) throw new SALT_ERR_EXEC_COMMAND('mount.filesystems: AIX is not supported by tsalt');
      return {};
    },
  }),
  set_filesystems: defineFunction({
    args: (z) =>
      z.object({
        name: z.unknown(),
        device: z.unknown(),
        vfstype: z.unknown(),
        opts: z.unknown().default('-'),
        mount: z.unknown().default('true'),
        config: z.string().default('/etc/filesystems'),
        test: z.unknown().default(false),
        match_on: z.unknown().default('auto'),
        not_change: z.unknown().default(false),
      }),
    varkw: true,
    doc: `Verify that this mount is represented in the filesystems on AIX (None elsewhere).

CLI Example:

    salt '*' mount.set_filesystems /mnt/foo /dev/sdz1 jfs2`,
    run: (ctx) => {
      if (isAix(ctx)) throw new SALT_ERR_EXEC_COMMAND('mount.set_filesystems: AIX is not supported by tsalt');
      return null;
    },
  }),
  rm_filesystems: defineFunction({
    args: (z) =>
      z.object({ name: z.unknown(), device: z.unknown(), config: z.string().default('/etc/filesystems') }),
    doc: `Remove the mount point from the filesystems on AIX (False elsewhere).

CLI Example:

    salt '*' mount.rm_filesystems /mnt/foo /dev/sdg`,
    run: (ctx) => {
      if (isAix(ctx)) throw new SALT_ERR_EXEC_COMMAND('mount.rm_filesystems: AIX is not supported by tsalt');
      return false;
    },
  }),
};
