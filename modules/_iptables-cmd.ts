/**
 * How Salt's `iptables` module reaches the iptables programs: the binary for a family
 * (`ip6tables` for `ipv6`), whether it has an option (`--wait`, `--check`), the distribution's
 * saved-rules file, and running a command line through `cmd.*` (so its retcode is the job's).
 */
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { which } from './_which.js';

/** The iptables binary for `family` as Salt's `which` finds it (`None` in commands when missing). */
export function iptablesCmd(family: unknown): string {
  return pyStr(which(family === 'ipv6' ? 'ip6tables' : 'iptables'));
}

/** Whether `iptables --help` mentions `option` (Salt's `_has_option`). */
export async function hasOption(ctx: ExecContext, option: string, family: unknown): Promise<boolean> {
  const help = await ctx.call('cmd.run_stdout', [`${iptablesCmd(family)} --help`], {
    output_loglevel: 'quiet',
  });
  return pyStr(help).includes(option);
}

/** `'--wait'` when the iptables binary supports it, else `''`. */
export async function waitFlag(ctx: ExecContext, family: unknown): Promise<string> {
  return (await hasOption(ctx, '--wait', family)) ? '--wait' : '';
}

/** Runs a command line (split like a shell would, no shell) and returns its standard error. */
export async function runStderr(
  ctx: ExecContext,
  cmd: string,
  kwargs: Record<string, unknown> = {},
): Promise<string> {
  return pyStr(await ctx.call('cmd.run_stderr', [cmd], kwargs));
}

/** Runs a command line and returns its standard output. */
export async function runStdout(ctx: ExecContext, cmd: string): Promise<string> {
  return pyStr(await ctx.call('cmd.run_stdout', [cmd]));
}

const CONF: Record<string, readonly [string, string]> = {
  RedHat: ['/etc/sysconfig/iptables', '/etc/sysconfig/ip6tables'],
  Arch: ['/etc/iptables/iptables.rules', '/etc/iptables/ip6tables.rules'],
  Debian: ['/etc/iptables/rules.v4', '/etc/iptables/rules.v6'],
  Gentoo: ['/var/lib/iptables/rules-save', '/var/lib/ip6tables/rules-save'],
  Suse: ['/etc/sysconfig/scripts/SuSEfirewall2-custom', '/etc/sysconfig/scripts/SuSEfirewall2-custom'],
  Void: ['/etc/iptables/iptables.rules', '/etc/iptables/ip6tables.rules'],
  Alpine: ['/etc/iptables/rules-save', '/etc/iptables/rules6-save'],
  NILinuxRT: ['/etc/natinst/share/iptables.conf', '/etc/natinst/share/ip6tables.conf'],
};

/**
 * The distribution's saved-rules file for `family` (Salt's `_conf`); throws, as Salt does, on an
 * OS it has none for. Gentoo and Alpine are matched by `os`, the others by `os_family`.
 */
export function savedRulesFile(ctx: ExecContext, family: unknown = 'ipv4'): string {
  const { os_family: osFamily, os } = ctx.grains as { os_family?: unknown; os?: unknown };
  const order = ['RedHat', 'Arch', 'Debian', 'Gentoo', 'Suse', 'Void', 'Alpine', 'NILinuxRT'];
  const byOs = new Set(['Gentoo', 'Alpine']);
  for (const name of order) {
    const hit = byOs.has(name) ? os === name : osFamily === name;
    const files = CONF[name];
    if (hit && files) return family === 'ipv6' ? files[1] : files[0];
  }
  throw new SALT_ERR_EXEC_COMMAND(
    `Saving iptables to file is not supported on ${pyStr(os)}. Please file an issue with SaltStack`,
  );
}
