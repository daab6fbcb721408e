/**
 * The sysvinit backend of the `service` module on Debian without systemd (Salt's
 * `salt/modules/debian_service.py`): the scripts in /etc/init.d, boot links in /etc/rc<level>.d
 * read for the current runlevel, `service <name> <action>` to act and `update-rc.d` to set
 * what starts at boot.
 */
import { existsSync, readdirSync } from 'node:fs';
import type { ExecContext } from '../kernel/index.js';

const INIT_D = '/etc/init.d';

/**
 * Runs `argv` through `cmd.retcode`, as Salt's backend does, so its exit code becomes the job's
 * retcode (unless `ignore_retcode`); `shell` runs one shell line instead.
 */
async function retcode(ctx: ExecContext, argv: string[] | string, kw: Record<string, unknown> = {}) {
  const shell = typeof argv === 'string';
  return Number(await ctx.call('cmd.retcode', [argv], { python_shell: shell, ...kw }));
}

/**
 * The current runlevel; '2' when `runlevel` does not know (as in a container). Salt reads it
 * through `cmd.run`, so its exit code (1 in a container) becomes the job's retcode.
 */
async function runlevel(ctx: ExecContext): Promise<string> {
  const out = (await ctx.call('cmd.run_all', [['runlevel']], { python_shell: false })) as {
    stdout: string;
    retcode: number;
  };
  if (out.stdout.includes('unknown') || out.retcode === 127) return '2';
  return out.stdout.split(/\s+/)[1] ?? '2';
}

/** The names that start at boot, from /etc/rcS.d and /etc/rc<runlevel>.d (Salt's `get_enabled`). */
export async function getEnabled(ctx: ExecContext): Promise<string[]> {
  const level = await runlevel(ctx);
  const ret = new Set<string>();
  for (const dir of [`/etc/rc${level}.d`, '/etc/rcS.d']) {
    let files: string[] = [];
    try {
      files = readdirSync(dir);
    } catch {
      continue;
    }
    // Salt keeps what follows the last run of digits (`S01x11-common` → `-common`)
    for (const f of files) if (f.startsWith('S')) ret.add(f.split(/\d+/).slice(-1)[0] ?? f);
  }
  return [...ret].sort();
}

/** Every init script, and every name enabled at boot (Salt's `get_all`). */
export async function getAll(ctx: ExecContext): Promise<string[]> {
  const ret = new Set<string>();
  try {
    for (const f of readdirSync(INIT_D)) if (f !== 'README') ret.add(f);
  } catch {
    // no /etc/init.d
  }
  for (const n of await getEnabled(ctx)) ret.add(n);
  return [...ret].sort();
}

/** `service <name> <action>`: true when it exits 0; its exit code is the job's, except for `status`. */
export async function serviceCmd(ctx: ExecContext, name: string, action: string): Promise<boolean> {
  return (await retcode(ctx, ['service', name, action], { ignore_retcode: action === 'status' })) === 0;
}

/** Enables `name` at boot: Salt runs `insserv <name> && update-rc.d <name> enable` in a shell. */
export async function enable(ctx: ExecContext, name: string): Promise<boolean> {
  const q = `'${name.replace(/'/g, `'"'"'`)}'`;
  return (await retcode(ctx, `insserv ${q} && update-rc.d ${q} enable`)) === 0;
}

/** Disables `name` at boot: `update-rc.d <name> disable`. */
export async function disable(ctx: ExecContext, name: string): Promise<boolean> {
  return (await retcode(ctx, ['update-rc.d', name, 'disable'])) === 0;
}

/** Whether an init script of that name exists (cheap check for tests and callers). */
export function hasInitScript(name: string): boolean {
  return existsSync(`${INIT_D}/${name}`);
}
