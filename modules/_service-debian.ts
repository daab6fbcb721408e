/**
 * The sysvinit backend of the `service` module on Debian without systemd (Salt's
 * `salt/modules/debian_service.py`): the scripts in /etc/init.d, boot links in /etc/rc<level>.d
 * read for the current runlevel, `service <name> <action>` to act and `update-rc.d` to set
 * what starts at boot.
 */
import { existsSync, readdirSync } from 'node:fs';
import type { ExecContext } from '../kernel/index.js';
import { execCommand } from './_pkg-exec.js';

const INIT_D = '/etc/init.d';

/** The current runlevel; '2' when `runlevel` does not know (as in a container). */
async function runlevel(): Promise<string> {
  const out = await execCommand(['runlevel']);
  if (out.stdout.includes('unknown') || out.retcode === 127) return '2';
  return out.stdout.split(/\s+/)[1] ?? '2';
}

/** The names that start at boot, from /etc/rcS.d and /etc/rc<runlevel>.d (Salt's `get_enabled`). */
export async function getEnabled(): Promise<string[]> {
  const level = await runlevel();
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
export async function getAll(): Promise<string[]> {
  const ret = new Set<string>();
  try {
    for (const f of readdirSync(INIT_D)) if (f !== 'README') ret.add(f);
  } catch {
    // no /etc/init.d
  }
  for (const n of await getEnabled()) ret.add(n);
  return [...ret].sort();
}

/** `service <name> <action>`: true when it exits 0. */
export async function serviceCmd(ctx: ExecContext, name: string, action: string): Promise<boolean> {
  const out = await execCommand(['service', name, action], { signal: ctx.signal });
  if (out.retcode !== 0) ctx.log.debug({ name, action, retcode: out.retcode }, 'service command failed');
  return out.retcode === 0;
}

/** Enables `name` at boot: Salt runs `insserv <name> && update-rc.d <name> enable` in a shell. */
export async function enable(name: string): Promise<boolean> {
  const q = `'${name.replace(/'/g, `'"'"'`)}'`;
  return (await execCommand(['/bin/sh', '-c', `insserv ${q} && update-rc.d ${q} enable`])).retcode === 0;
}

/** Disables `name` at boot: `update-rc.d <name> disable`. */
export async function disable(name: string): Promise<boolean> {
  return (await execCommand(['update-rc.d', name, 'disable'])).retcode === 0;
}

/** Whether an init script of that name exists (cheap check for tests and callers). */
export function hasInitScript(name: string): boolean {
  return existsSync(`${INIT_D}/${name}`);
}
