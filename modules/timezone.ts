/**
 * Salt's `timezone` execution module for POSIX systems (`salt/modules/timezone.py`): read the
 * system time zone and hardware clock mode, compare a zone with `/etc/localtime` byte for
 * byte, and set them. `timedatectl` is used when it is installed (and its failure, as on a
 * machine not booted with systemd, is an error as in Salt); otherwise the distribution's files
 * (`/etc/timezone` on Debian, `/etc/sysconfig/clock` on RedHat/Suse, `/etc/adjtime`).
 */
import { existsSync } from 'node:fs';
import { readFile, readlink, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { which } from './_which.js';

const ZONEINFO = '/usr/share/zoneinfo/';
const family = (ctx: ExecContext): string => String(ctx.grains.os_family ?? '');

function localtimePath(ctx: ExecContext): string {
  const lsb = String(ctx.grains.lsb_distrib_id ?? '');
  return family(ctx).includes('NILinuxRT') && lsb.includes('nilrt')
    ? '/etc/natinst/share/localtime'
    : '/etc/localtime';
}

async function timedatectl(ctx: ExecContext): Promise<string> {
  const r = (await ctx.call('cmd.run_all', [['timedatectl']], { python_shell: false })) as {
    retcode: number;
    stdout: string;
    stderr: string;
  };
  if (r.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(`timedatectl failed: ${r.stderr}`);
  return r.stdout;
}

const parseFailure = (out: string) =>
  new SALT_ERR_EXEC_COMMAND(
    `Failed to parse timedatectl output: ${out}\nPlease file an issue with SaltStack`,
  );

/** The first `KEY=value` line (not a comment) of `file` whose line contains `key`, unquoted. */
async function assignedIn(file: string, key: string, skipComments: boolean): Promise<string | undefined> {
  const text = await readFile(file, 'utf8');
  for (const line of text.split('\n')) {
    if (skipComments && /^\s*#/.test(line)) continue;
    if (line.includes(key) && line.includes('=')) {
      const v = line.split('=').pop() ?? '';
      return v.replace(/^['"]+|['"]+$/g, '') || 'UTC';
    }
  }
  return undefined;
}

async function zoneFromLocaltime(ctx: ExecContext): Promise<string> {
  const tz = localtimePath(ctx);
  try {
    const target = path.normalize(path.join('/etc', await readlink(tz)));
    if (target.startsWith(ZONEINFO)) return target.slice(ZONEINFO.length);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new SALT_ERR_EXEC_COMMAND(`${tz} does not exist`);
  }
  throw new SALT_ERR_EXEC_COMMAND('Unable to determine timezone');
}

async function getZone(ctx: ExecContext): Promise<string> {
  if (which('timedatectl')) {
    const out = await timedatectl(ctx);
    for (const line of out.split('\n')) {
      const m = /Time ?zone:\s+(\S+)/.exec(line.trim());
      if (m?.[1]) return m[1];
    }
    throw parseFailure(out);
  }
  const fam = family(ctx);
  if (String(ctx.grains.os ?? '').toLowerCase() === 'centos') return zoneFromLocaltime(ctx);
  if (fam.includes('RedHat') || fam.includes('Suse')) {
    const z = await assignedIn('/etc/sysconfig/clock', 'ZONE', true);
    if (z === undefined) throw new SALT_ERR_EXEC_COMMAND('Unable to get timezone from /etc/sysconfig/clock');
    return z;
  }
  if (fam.includes('Debian') || fam.includes('Gentoo')) {
    try {
      return (await readFile('/etc/timezone', 'utf8')).trim();
    } catch (err) {
      throw new SALT_ERR_EXEC_COMMAND(
        `Problem reading timezone file /etc/timezone: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      );
    }
  }
  if (['FreeBSD', 'OpenBSD', 'NetBSD', 'NILinuxRT', 'Slackware'].includes(fam)) return zoneFromLocaltime(ctx);
  throw new SALT_ERR_EXEC_COMMAND('Unable to get timezone');
}

async function adjtimeZone(ctx: ExecContext): Promise<string | null> {
  if (existsSync('/etc/adjtime'))
    return String(await ctx.call('cmd.run', [['tail', '-n', '1', '/etc/adjtime']], { python_shell: false }));
  if (existsSync('/dev/rtc'))
    throw new SALT_ERR_EXEC_COMMAND('Unable to get hwclock timezone from /etc/adjtime');
  return null;
}

async function getHwclock(ctx: ExecContext): Promise<string | null> {
  if (which('timedatectl')) {
    const out = await timedatectl(ctx);
    for (const raw of out.split('\n')) {
      const line = raw.trim();
      if (line.toLowerCase().includes('rtc in local tz'))
        return (line.split(':').pop() ?? '').trim().toLowerCase() === 'yes' ? 'localtime' : 'UTC';
    }
    throw parseFailure(out);
  }
  const fam = family(ctx);
  if (['RedHat', 'Suse', 'NILinuxRT'].some((f) => fam.includes(f))) return adjtimeZone(ctx);
  if (fam.includes('Debian')) {
    try {
      for (const line of (await readFile('/etc/default/rcS', 'utf8')).split('\n')) {
        if (/^\s*#/.test(line) || !line.includes('UTC=')) continue;
        return (line.split('=').pop() ?? '').toLowerCase() === 'yes' ? 'UTC' : 'localtime';
      }
    } catch {
      // no rcS since Wheezy: /etc/adjtime says
    }
    return adjtimeZone(ctx);
  }
  return adjtimeZone(ctx);
}

/** Byte comparison of two files; the error names the file that could not be read. */
async function sameBytes(a: string, b: string): Promise<boolean> {
  const read = (f: string) =>
    readFile(f).catch((err: NodeJS.ErrnoException) => {
      throw Object.assign(err, { path: f });
    });
  const [x, y] = await Promise.all([read(a), read(b)]);
  return x.equals(y);
}

async function zoneCompare(ctx: ExecContext, timezone: string): Promise<boolean> {
  const tzfile = localtimePath(ctx);
  const zonepath = `${ZONEINFO}${timezone}`;
  try {
    return await sameBytes(tzfile, zonepath);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.path === zonepath) throw new SALT_ERR_INVOCATION(`Can't find a local timezone "${timezone}"`);
    throw new SALT_ERR_EXEC_COMMAND(
      `Failed to read ${tzfile} to determine current timezone: ${e.code === 'ENOENT' ? 'No such file or directory' : e.message}`,
    );
  }
}

/** Replaces lines matching `re` in `file` (Salt's `file.sed` as these callers use it). */
async function sedFile(file: string, re: RegExp, to: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return;
  }
  await writeFile(file, text.replace(new RegExp(re.source, 'gm'), to));
}

async function setZone(ctx: ExecContext, timezone: string): Promise<string | boolean> {
  if (which('timedatectl')) {
    await ctx.call('cmd.run', [`timedatectl set-timezone ${timezone}`]).catch(() => undefined);
  }
  const zonepath = `${ZONEINFO}${timezone}`;
  if (!existsSync(zonepath)) return `Zone does not exist: ${zonepath}`;
  const tzfile = localtimePath(ctx);
  await unlink(tzfile).catch(() => undefined);
  await symlink(zonepath, tzfile);
  const fam = family(ctx);
  if (fam.includes('RedHat')) await sedFile('/etc/sysconfig/clock', /^ZONE=.*/, `ZONE="${timezone}"`);
  else if (fam.includes('Suse'))
    await sedFile('/etc/sysconfig/clock', /^TIMEZONE=.*/, `TIMEZONE="${timezone}"`);
  else if (fam.includes('Debian') || fam.includes('Gentoo'))
    await writeFile('/etc/timezone', `${timezone.trim()}\n`);
  return true;
}

async function setHwclock(ctx: ExecContext, clock: string): Promise<boolean> {
  if (which('timedatectl')) {
    const flag = clock === 'localtime' ? 'true' : 'false';
    return (
      (await ctx.call('cmd.retcode', [['timedatectl', 'set-local-rtc', flag]], { python_shell: false })) === 0
    );
  }
  const timezone = await getZone(ctx);
  const zonepath = `${ZONEINFO}${timezone}`;
  if (!existsSync(zonepath)) throw new SALT_ERR_EXEC_COMMAND(`Zone '${zonepath}' does not exist`);
  await unlink('/etc/localtime').catch(() => undefined);
  await symlink(zonepath, '/etc/localtime');
  if (family(ctx).includes('Debian')) {
    if (clock === 'UTC') await sedFile('/etc/default/rcS', /^UTC=.*/, 'UTC=yes');
    else if (clock === 'localtime') await sedFile('/etc/default/rcS', /^UTC=.*/, 'UTC=no');
  }
  return true;
}

export default defineModule({
  name: 'timezone',
  doc: 'Module for managing timezone on POSIX-like systems.',
  virtual: () =>
    process.platform === 'win32' || process.platform === 'darwin'
      ? { ok: false, reason: 'The timezone execution module failed to load: POSIX (non-macOS) systems only' }
      : true,
  functions: {
    get_zone: defineFunction({
      doc: "Get current timezone (i.e. America/Denver)\n\nCLI Example: salt '*' timezone.get_zone",
      run: (ctx) => getZone(ctx),
    }),
    get_zonecode: defineFunction({
      doc: "Get current timezone (i.e. PST, MDT, etc)\n\nCLI Example: salt '*' timezone.get_zonecode",
      run: (ctx) => ctx.call('cmd.run', [['date', '+%Z']], { python_shell: false }),
    }),
    get_offset: defineFunction({
      doc: "Get current numeric timezone offset from UTC (i.e. -0700)\n\nCLI Example: salt '*' timezone.get_offset",
      run: (ctx) => ctx.call('cmd.run', [['date', '+%z']], { python_shell: false }),
    }),
    set_zone: defineFunction({
      args: (z) => z.object({ timezone: z.string() }),
      doc: "Unlinks, then symlinks /etc/localtime to the set timezone (and writes /etc/timezone on Debian).\n\nCLI Example: salt '*' timezone.set_zone 'America/Denver'",
      run: (ctx, a) => setZone(ctx, a.timezone),
    }),
    zone_compare: defineFunction({
      args: (z) => z.object({ timezone: z.string() }),
      doc: "Compares the given timezone's zoneinfo file with /etc/localtime; True when they match.\n\nCLI Example: salt '*' timezone.zone_compare 'America/Denver'",
      run: (ctx, a) => zoneCompare(ctx, a.timezone),
    }),
    get_hwclock: defineFunction({
      doc: "Get current hardware clock setting (UTC or localtime)\n\nCLI Example: salt '*' timezone.get_hwclock",
      run: (ctx) => getHwclock(ctx),
    }),
    set_hwclock: defineFunction({
      args: (z) => z.object({ clock: z.string() }),
      doc: "Sets the hardware clock to be either UTC or localtime\n\nCLI Example: salt '*' timezone.set_hwclock UTC",
      run: (ctx, a) => setHwclock(ctx, a.clock),
    }),
  },
});
