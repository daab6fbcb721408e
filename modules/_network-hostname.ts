/**
 * Salt's `network.mod_hostname` (`salt/modules/network.py`, Linux paths): sets the host name
 * with `hostnamectl set-hostname` (or the `hostname` program where there is no hostnamectl),
 * puts the new name in place of the old one in /etc/hosts, and writes /etc/hostname (Debian)
 * or the `HOSTNAME=` line of /etc/sysconfig/network (RedHat). Also Python's `socket.getfqdn()`.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { type ExecContext, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pySplit, runProgram } from './_status-proc.js';
import { which } from './_which.js';

/**
 * Python's `socket.getfqdn()` as /etc/hosts answers it: the host name's address, that address's
 * first entry (`gethostbyaddr`), then its first dotted name or else its canonical name.
 */
export function getFqdn(): string {
  const name = hostname();
  let entries: string[][] = [];
  try {
    entries = readFileSync('/etc/hosts', 'utf8')
      .split('\n')
      .map((raw) => pySplit(raw.split('#')[0] ?? ''))
      .filter((f) => f.length > 1);
  } catch {}
  const own = entries.find((f) => f.slice(1).includes(name));
  if (!own) return name;
  const byAddr = entries.find((f) => f[0] === own[0]) ?? own;
  const names = byAddr.slice(1);
  return names.find((n) => n.includes('.')) ?? names[0] ?? name;
}

/** The static host name `hostnamectl status` reports, or undefined. */
function staticHostname(status: string): string | undefined {
  let found: string | undefined;
  for (const line of status.split('\n')) {
    const parts = line.split(':');
    if (parts[0]?.includes('Static hostname')) found = (parts[1] ?? '').trim();
  }
  return found;
}

/**
 * The hosts file with `oldName` replaced by `newName` where it is a field of a line; such a line
 * is written with tabs between its fields, as Salt writes it. Unlike Salt, which rewrites every
 * line that way (comments included), lines without the old name are kept as they are.
 */
export function renameInHosts(text: string, oldName: string, newName: string): string {
  const lines = text.split('\n');
  return lines
    .map((line) => {
      const fields = pySplit(line);
      const at = fields.indexOf(oldName);
      if (at < 0) return line;
      fields[at] = newName;
      return fields.join('\t');
    })
    .join('\n');
}

async function rewrite(file: string, change: (text: string) => string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const next = change(text);
  if (next !== text) await writeFile(file, next);
}

/** The `HOSTNAME=` line of /etc/sysconfig/network set to `name`, keeping the old value's quotes. */
export function setSysconfigHostname(text: string, name: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (!line.startsWith('HOSTNAME')) return line;
      const old = line.slice(line.indexOf('=') + 1).trimEnd();
      const quote =
        old.length > 1 && (old[0] === '"' || old[0] === "'") && old.endsWith(old[0]) ? old[0] : '';
      return `HOSTNAME=${quote}${name.replace(/^(["'])(.*)\1$/, '$2')}${quote}`;
    })
    .join('\n');
}

/** Salt's `network.mod_hostname`: True once the name is set, False when the program refuses it. */
export async function modHostname(ctx: ExecContext, name: string | null): Promise<boolean> {
  if (name === null) return false;
  if (name === '' || name.startsWith('-') || /\s/.test(name)) {
    throw new SALT_ERR_INVOCATION(`'${name}' is not a valid host name`);
  }
  const program = which('hostnamectl') ?? which('hostname');
  if (!program) throw new SALT_ERR_EXEC_COMMAND("Neither 'hostnamectl' nor 'hostname' can be found");
  let oldName: string;
  if (program.endsWith('hostnamectl')) {
    const status = await runProgram([program, 'status']);
    oldName = (status.retcode === 0 ? staticHostname(status.stdout) : undefined) ?? hostname();
    const set = await runProgram([program, 'set-hostname', name]);
    if (set.retcode !== 0) {
      ctx.log.debug({ program, stderr: set.stderr }, 'the host name could not be set');
      return false;
    }
  } else {
    oldName = getFqdn();
    const set = await runProgram([program, name]);
    if (set.retcode !== 0) ctx.log.warn({ program, stderr: set.stderr.trim() }, 'the host name was not set');
  }
  await rewrite('/etc/hosts', (t) => renameInHosts(t, oldName, name));
  const family = ctx.grains.os_family;
  if (family === 'RedHat') await rewrite('/etc/sysconfig/network', (t) => setSysconfigHostname(t, name));
  else if (family === 'Debian' || family === 'NILinuxRT') await writeFile('/etc/hostname', `${name}\n`);
  return true;
}
